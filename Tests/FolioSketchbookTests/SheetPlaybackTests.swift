import FolioGeometry
import XCTest
@testable import FolioSketchbook

/// Which strokes and points a playback shows when: recorded pace with pauses cut to a second,
/// an even pace for strokes without times, and the time-lapse's frames ending on the whole sheet.
final class SheetPlaybackTests: XCTestCase {
    private func line(_ count: Int, times: StrokeTimes? = nil) -> Stroke {
        Stroke(points: (0..<count).map { Point(x: Double($0), y: 0) }, times: times)
    }

    func testTimedStrokesPlayAtTheirPaceWithLongPausesCut() {
        let strokes = [
            line(3, times: StrokeTimes(start: 100, offsets: [0, 200, 400])),
            // Half a second after the first ended.
            line(2, times: StrokeTimes(start: 100.9, offsets: [0, 100])),
            // An hour later, and a pen held still for five seconds within the stroke.
            line(3, times: StrokeTimes(start: 3700, offsets: [0, 5000, 5100])),
        ]
        let playback = SheetPlayback(strokes: strokes)
        // 0.4 + 0.5 + 0.1, then the hour cut to 1, then 1 + 0.1.
        XCTAssertEqual(playback.duration, 3.1, accuracy: 1e-9)
        typealias P = SheetPlayback.Progress
        XCTAssertEqual(playback.progress(at: -1), P(strokes: 0, points: 0))
        XCTAssertEqual(playback.progress(at: 0), P(strokes: 0, points: 1))
        XCTAssertEqual(playback.progress(at: 0.25), P(strokes: 0, points: 2))
        XCTAssertEqual(playback.progress(at: 0.41), P(strokes: 1, points: 0))
        XCTAssertEqual(playback.progress(at: 0.89), P(strokes: 1, points: 0))
        XCTAssertEqual(playback.progress(at: 0.91), P(strokes: 1, points: 1))
        XCTAssertEqual(playback.progress(at: 1.01), P(strokes: 2, points: 0))
        XCTAssertEqual(playback.progress(at: 1.99), P(strokes: 2, points: 0))
        XCTAssertEqual(playback.progress(at: 2.01), P(strokes: 2, points: 1))
        XCTAssertEqual(playback.progress(at: 3.01), P(strokes: 2, points: 2))
        XCTAssertEqual(playback.progress(at: playback.duration), P(strokes: 3, points: 0))
        XCTAssertEqual(playback.progress(atFraction: 1), playback.end)
        XCTAssertEqual(playback.progress(atFraction: .nan), P(strokes: 0, points: 1))
    }

    func testStrokesWithoutTimesPlayEvenly() {
        let playback = SheetPlayback(strokes: [line(5), line(3), line(1)])
        // Each stroke half a second, a quarter between them.
        XCTAssertEqual(playback.duration, 0.5 + 0.25 + 0.5 + 0.25, accuracy: 1e-9)
        XCTAssertEqual(playback.progress(at: 0.25), SheetPlayback.Progress(strokes: 0, points: 3))
        XCTAssertEqual(playback.progress(at: 0.75), SheetPlayback.Progress(strokes: 1, points: 1))
        XCTAssertEqual(playback.progress(at: 1.24), SheetPlayback.Progress(strokes: 1, points: 2))
        XCTAssertEqual(playback.progress(at: 1.5), playback.end)
        // Progress never goes back as time goes on, and reaches every point.
        var last = SheetPlayback.Progress(strokes: 0, points: 0)
        for step in 0...300 {
            let now = playback.progress(at: Double(step) / 200)
            XCTAssertTrue(now.strokes > last.strokes || (now.strokes == last.strokes && now.points >= last.points), "\(step)")
            last = now
        }
        XCTAssertEqual(last, playback.end)
    }

    func testAClockThatWentBackAndAnEmptySheetPlayWithoutPauses() {
        let strokes = [line(2, times: StrokeTimes(start: 500, offsets: [0, 100])), line(2, times: StrokeTimes(start: 10, offsets: [0, 100]))]
        XCTAssertEqual(SheetPlayback(strokes: strokes).duration, 0.2, accuracy: 1e-9)
        let empty = SheetPlayback(strokes: [])
        XCTAssertEqual(empty.duration, 0)
        XCTAssertEqual(empty.progress(at: 0), empty.end)
        XCTAssertEqual(empty.end, SheetPlayback.Progress(strokes: 0, points: 0))
    }

    func testTimelapseFramesEndOnTheWholeSheetAndHoldIt() {
        let frames = TimelapseFrames(count: 900, fps: 30)
        XCTAssertEqual(frames.hold, 30)
        XCTAssertEqual(frames.fraction(ofFrame: 0), 1.0 / 870, accuracy: 1e-12)
        XCTAssertLessThan(frames.fraction(ofFrame: 868), 1)
        XCTAssertEqual(frames.fraction(ofFrame: 869), 1)
        XCTAssertEqual(frames.fraction(ofFrame: 899), 1)
        // Short videos hold a tenth of their frames; one frame is the whole sheet.
        XCTAssertEqual(TimelapseFrames(count: 24, fps: 12).hold, 2)
        XCTAssertEqual(TimelapseFrames(count: 1, fps: 30).fraction(ofFrame: 0), 1)
    }
}
