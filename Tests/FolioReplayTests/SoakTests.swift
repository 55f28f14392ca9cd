import FolioRandom
import Foundation
import FolioCore
import FolioGeometry
import FolioInput
import FolioReplay
import XCTest

/// A long session, compressed: cycles of quick strokes, a pinch held and released, every stroke
/// undone again (so the book stays the same size and any growth is a leak), a page turn every
/// third cycle and a resize every fifth. `minutes` of trace time; a cycle lasts about 3.3 s.
struct SoakTrace {
    static let strokesPerCycle = 30

    static func make(minutes: Double, width: Int = 640, height: Int = 400) -> Trace {
        var events: [TimedInputEvent] = []
        var t = 0.0
        var generator = SeededRandom(state: 0x9E37_79B9_7F4A_7C15)
        func random() -> Double { generator.unit() }
        func touch(_ items: InputEvent...) {
            for item in items { events.append(TimedInputEvent(time: t, event: item)) }
            events.append(TimedInputEvent(time: t, event: .touchFrame))
        }
        func key(_ chord: KeyChord) {
            events.append(TimedInputEvent(time: t, event: .key(chord, pressed: true)))
            t += 10
            events.append(TimedInputEvent(time: t, event: .key(chord, pressed: false)))
            t += 10
        }
        var size = (width, height)
        var onFirstSheet = true
        // One stroke that stays, so the first sheet is never blank and a forward turn always turns.
        touch(.touchDown(id: 1, at: Point(x: 100, y: 100)))
        t += 16
        touch(.touchMotion(id: 1, to: Point(x: 200, y: 120)))
        t += 16
        touch(.touchUp(id: 1))
        t += 400
        var cycle = 0
        while t < minutes * 60_000 {
            cycle += 1
            let w = Double(size.0), h = Double(size.1)
            for _ in 0..<strokesPerCycle {
                // Above the toolbar's handle (the bottom 48 px and the bar over it): a touch there
                // presses a control instead of drawing, and the undos below would take one stroke too many.
                var p = Point(x: 60 + random() * (w - 120), y: 40 + random() * (h - 180))
                touch(.touchDown(id: 1, at: p))
                for _ in 0..<5 {
                    t += 8
                    p = Point(x: p.x + random() * 24 - 12, y: p.y + random() * 24 - 12)
                    touch(.touchMotion(id: 1, to: p))
                }
                t += 8
                touch(.touchUp(id: 1))
                t += 10
            }
            // Two fingers 300 px apart close to 180 (scale 0.6), let go, and the book opens (0.83 s).
            t += 50
            let y = h / 2
            touch(.touchDown(id: 2, at: Point(x: w / 2 - 150, y: y)), .touchDown(id: 3, at: Point(x: w / 2 + 150, y: y)))
            for step in 1...10 {
                t += 16
                let half = 150 - Double(step) * 6
                touch(.touchMotion(id: 2, to: Point(x: w / 2 - half, y: y)), .touchMotion(id: 3, to: Point(x: w / 2 + half, y: y)))
            }
            t += 16
            touch(.touchUp(id: 2), .touchUp(id: 3))
            t += 900
            for _ in 0..<strokesPerCycle { key(KeyChord(key: "z", modifiers: [.ctrl])) }
            if cycle % 3 == 0 {
                // From the right edge leftwards on the first sheet, from the left edge back on the second.
                let (from, to) = onFirstSheet ? (w - 4, 40.0) : (4.0, w - 40)
                touch(.touchDown(id: 4, at: Point(x: from, y: y)))
                for step in 1...10 {
                    t += 16
                    touch(.touchMotion(id: 4, to: Point(x: from + (to - from) * Double(step) / 10, y: y)))
                }
                t += 16
                touch(.touchUp(id: 4))
                t += 450
                onFirstSheet.toggle()
            }
            if cycle % 5 == 0 {
                size = size == (width, height) ? (width + 160, height + 100) : (width, height)
                events.append(TimedInputEvent(time: t, event: .resize(width: size.0, height: size.1, scale: nil)))
                t += 50
            }
        }
        return Trace(events: events)
    }
}

/// Resident memory over a long replay: after a warm-up it stays flat (a leak per stroke, frame
/// or gesture shows as a trend). `make test` replays 2 minutes of trace time;
/// FOLIO_SOAK_MINUTES=30 gives the long run and prints the whole curve.
final class SoakTests: XCTestCase {
    func testResidentMemoryStaysFlatOverALongSession() throws {
        let minutes = ProcessInfo.processInfo.environment["FOLIO_SOAK_MINUTES"].flatMap(Double.init) ?? 2
        let trace = SoakTrace.make(minutes: minutes)
        let replay = Replay(trace: trace, options: .init(width: 640, height: 400))
        replay.session.timelineCapacity = 256
        let interval = minutes * 60_000 / 40
        var samples: [(time: Double, megabytes: Double)] = []
        let started = Date()
        try replay.run { shown, _ in
            let time = shown.presented
            if time >= Double(samples.count) * interval { samples.append((time, residentMegabytes())) }
        }
        let seconds = Date().timeIntervalSince(started)
        let strokes = trace.events.filter { if case .touchDown(id: 1, _) = $0.event { true } else { false } }.count
        let curve = samples.map { String(format: "%.0fs %.1f", $0.time / 1000, $0.megabytes) }.joined(separator: ", ")
        print("soak: \(minutes) min of trace, \(trace.events.count) events, \(strokes) strokes, \(replay.frameCount) frames "
              + "in \(String(format: "%.1f", seconds)) s; resident MB: \(curve)")

        XCTAssertEqual(replay.session.book.sheets.map(\.strokes.count).reduce(0, +), 1, "every soak stroke was undone")
        XCTAssertEqual(replay.session.book.sheets.count, 2)
        XCTAssertLessThanOrEqual(replay.session.timeline.count, 512, "the timeline keeps the newest events only")
        // After the first quarter (warm-up), the last quarter's floor (between the peaks a larger
        // window brings) stays within 10 MB of the second's. The allocator's working set settles
        // over the first minutes (the 30-minute run is flat from about 10 minutes on), so this
        // catches what leaks per stroke (20 KB or more) or per pinch (600 KB), not a slow creep.
        let quarter = samples.count / 4
        XCTAssertGreaterThanOrEqual(quarter, 5)
        let second = samples[quarter..<2 * quarter].map(\.megabytes).min() ?? 0
        let last = samples[(3 * quarter)...].map(\.megabytes).min() ?? 0
        // A sanitizer's own bookkeeping (ASan's quarantine of freed memory) grows the resident set.
        if ProcessInfo.processInfo.environment["FOLIO_SANITIZER"] == nil {
            XCTAssertLessThan(last - second, 10, "resident memory grows over the session: \(curve)")
        }
    }
}

final class TimelineCapacityTests: XCTestCase {
    /// A capacity keeps at least that many of the newest events and never more than twice as many.
    func testTheTimelineKeepsTheNewestEventsWithinTwiceItsCapacity() {
        let session = Session(width: 640, height: 400)
        session.timelineCapacity = 4
        var counts: [Int] = []
        for i in 0..<20 {
            let t = Double(i) * 100
            session.handle(.touchDown(id: 1, at: Point(x: 100, y: 100)), at: t)
            session.handle(.touchFrame, at: t)
            session.handle(.touchUp(id: 1), at: t + 16)
            session.handle(.touchFrame, at: t + 16)
            counts.append(session.timeline.count)
        }
        XCTAssertTrue(counts.dropFirst(2).allSatisfy { (4..<8).contains($0) }, "\(counts)")
        XCTAssertEqual(session.timeline.last, TimelineEvent(time: 1916, name: "stroke.ended"))
        XCTAssertEqual(session.book.sheet.strokes.count, 20, "only the timeline is cut, never the drawing")
    }
}

/// This process's resident set, in MB (from /proc/self/statm).
func residentMegabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}
