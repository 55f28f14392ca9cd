import FolioCore
import FolioInput
import XCTest

/// The built-in demo (`folio --demo`): it must fit any window Folio allows and play as a person
/// would: four kept strokes, then a pinch that folds to 0.75, leaves no ink, and unfolds; then a
/// page turn to a new sheet with one stroke on it.
final class DemoTraceTests: XCTestCase {
    func testEveryPointLiesInsideTheWindowAtEverySize() {
        for (width, height) in [(360, 240), (1280, 800), (1920, 1200), (800, 1280)] {
            let trace = DemoTrace.trace(width: width, height: height)
            for event in trace.events {
                switch event.event {
                case let .touchDown(_, p), let .touchMotion(_, p):
                    XCTAssertTrue(p.x >= 0 && p.y >= 0 && p.x < Double(width) && p.y < Double(height),
                                  "\(p) at \(event.time) ms lies outside \(width)x\(height)")
                default:
                    break
                }
            }
        }
    }

    func testTimesNeverGoBackAndEveryTouchBatchEndsWithAFrame() throws {
        let trace = DemoTrace.trace(width: 1280, height: 800)
        XCTAssertEqual(zip(trace.events, trace.events.dropFirst()).filter { $0.1.time < $0.0.time }.count, 0)
        XCTAssertEqual(trace.events.last?.event, .touchFrame)
        XCTAssertGreaterThan(trace.duration, 3000, "long enough to watch")
        XCTAssertLessThan(trace.duration, 9000, "short enough for a demo")
        // Round trip through the trace format: the demo is an ordinary trace.
        XCTAssertEqual(try Trace(parsing: trace.serialized()).events, trace.events)
    }

    func testPlayedThroughASessionItKeepsFourStrokesFoldsToThreeQuartersAndTurnsToANewSheet() {
        let trace = DemoTrace.trace(width: 1280, height: 800)
        let session = Session(width: 1280, height: 800)
        var deepest = 1.0
        for event in trace.events {
            session.handle(event.event, at: event.time)
            if session.mode.showsCurtain { deepest = min(deepest, session.foldScale) }
        }
        XCTAssertEqual(session.book.sheets.map(\.strokes.count), [4, 1],
                       "wave, spiral, dot and loop; the pinch and the turn draw nothing; a wave on the new sheet")
        XCTAssertEqual(deepest, 0.75, accuracy: 0.01)
        session.advance(to: trace.duration + 2000)
        XCTAssertFalse(session.isAnimating)
        let names = session.timeline.map(\.name)
        for expected in ["fold.began", "fold.ended", "unfold.completed", "flip.began", "flip.completed"] {
            XCTAssertTrue(names.contains(expected), "\(expected) in \(names)")
        }
    }
}
