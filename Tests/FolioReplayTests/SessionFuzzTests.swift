import FolioCore
import FolioGeometry
import FolioInput
import FolioReplay
import FolioSketchbook
import FolioRandom
import XCTest

/// Impossible and unlikely input (ids that never went down, downs twice, cancels mid-pinch,
/// keys and resizes in between) must never crash the session or leave it stuck.
final class SessionFuzzTests: XCTestCase {
    func testRandomInputNeverBreaksTheSession() throws {
        let keys = ["ctrl+z", "ctrl+shift+z", "ctrl+y", "bracketright", "bracketleft", "ctrl+s", "F11", "x"]
            .compactMap(KeyChord.init(parsing:))
        for seed in 1...16 {
            var random = SeededRandom(state: UInt64(seed))
            let session = Session(width: 640, height: 400)
            var time = 0.0
            for _ in 0..<300 {
                time += Double(random.next(40))
                let event: InputEvent
                switch random.next(14) {
                case 0, 1: event = .touchDown(id: Int32(random.next(4)), at: random.point())
                case 2, 3, 4: event = .touchMotion(id: Int32(random.next(4)), to: random.point())
                case 5: event = .touchUp(id: Int32(random.next(4)))
                case 6, 7: event = .touchFrame
                case 8: event = .touchCancel
                case 9: event = random.next(2) == 0 ? .pointerMotion(to: random.point())
                    : .pointerButton(.left, pressed: random.next(2) == 0)
                case 10: event = .pinchBegin(fingers: 2)
                case 11: event = random.next(2) == 0 ? .pinchUpdate(scale: Double(random.next(200)) / 100 + 0.01, dx: 0, dy: 0, rotation: 0)
                    : .pinchEnd(cancelled: random.next(2) == 0)
                case 12: event = .key(keys[random.next(keys.count)], pressed: random.next(3) != 0)
                default: event = .resize(width: 160 + random.next(320), height: 120 + random.next(200), scale: BufferScale(numerator: 120 + random.next(121)))
                }
                session.handle(event, at: time)
                if random.next(3) == 0 {
                    session.advance(to: time)
                    let damage = session.renderFrame()
                    XCTAssertTrue(session.frame.bounds.contains(damage.bounds), "seed \(seed): damage \(damage) outside the frame")
                }
                XCTAssertGreaterThanOrEqual(session.foldScale, 0.48 * 0.95 * 0.95, "seed \(seed)")
                XCTAssertLessThanOrEqual(session.foldScale, 1, "seed \(seed)")
            }
            // Everything ends: every finger lifts, the touchpad lets go, the book opens.
            session.handle(.touchCancel, at: time + 1)
            session.handle(.pinchEnd(cancelled: true), at: time + 1)
            session.handle(.pointerButton(.left, pressed: false), at: time + 1)
            if let open = KeyChord(parsing: "bracketleft") { session.handle(.key(open, pressed: true), at: time + 1) }
            session.advance(to: time + 10_000)
            _ = session.renderFrame()
            XCTAssertFalse(session.isDrawing, "seed \(seed)")
            XCTAssertFalse(session.isAnimating, "seed \(seed)")
            XCTAssertEqual(session.mode, .idle, "seed \(seed)")
            let names = session.timeline.map(\.name)
            let began = names.filter { $0 == "stroke.began" }.count
            let finished = names.filter { $0 == "stroke.ended" || $0 == "stroke.withdrawn" }.count
            XCTAssertEqual(began, finished, "seed \(seed): every stroke ends or is withdrawn")
            XCTAssertEqual(names.filter { $0 == "fold.began" }.count, names.filter { $0 == "fold.ended" }.count, "seed \(seed)")
        }
    }

    /// What a compositor may send is bounded only by its types (and a pinch's scale by nothing):
    /// coordinates, scales, deltas and sizes at the extremes of Double and Int never trap the
    /// session, and whatever it keeps in the book is within the book's range.
    func testExtremeValuesNeverBreakTheSession() {
        let coordinates: [Double] = [1e308, -1e308, .infinity, -.infinity, .nan, 1e20, -1e20, 8_388_608, -8_388_608,
                                     .leastNonzeroMagnitude, -0.0, 1e6, 50, 200, 390]
        let scales: [Double] = [1e308, .leastNonzeroMagnitude, .infinity, .nan, 0, -1, 0.5, 1]
        // One side at an extreme, the other small: fitted windows stay quick to draw.
        let largeSides = [Int.max, Int.min, 16384, 8193, 0], smallSides = [Int.min, -1, 0, 1, 120]
        let scaleValues = [BufferScale(numerator: .max), BufferScale(numerator: .min), 0, 1, 8, BufferScale(numerator: 179), BufferScale(numerator: 961)]
        let keys = ["ctrl+z", "ctrl+shift+z", "bracketright", "bracketleft", "Next", "Prior", "ctrl+n", "ctrl+Delete"]
            .compactMap(KeyChord.init(parsing:))
        for seed in 1...12 {
            var random = SeededRandom(state: UInt64(seed) &* 0x9E37)
            func pick<T>(_ values: [T]) -> T { values[random.next(values.count)] }
            let session = Session(width: 400, height: 300)
            var time = 0.0
            for _ in 0..<200 {
                time += pick([0, 1, 16, 1000])
                let p = Point(x: pick(coordinates), y: pick(coordinates))
                let event: InputEvent
                switch random.next(10) {
                case 0: event = .touchDown(id: Int32(random.next(3)), at: p)
                case 1, 2: event = .touchMotion(id: Int32(random.next(3)), to: p)
                case 3: event = .touchUp(id: Int32(random.next(3)))
                case 4: event = .touchFrame
                case 5: event = random.next(2) == 0 ? .pointerMotion(to: p) : .pointerButton(.left, pressed: random.next(2) == 0)
                case 6: event = random.next(3) == 0 ? .pinchBegin(fingers: 2) : .pinchEnd(cancelled: random.next(2) == 0)
                case 7: event = .pinchUpdate(scale: pick(scales), dx: pick(coordinates), dy: pick(coordinates), rotation: pick(coordinates))
                case 8: event = .key(pick(keys), pressed: true)
                default:
                    let sides = (pick(largeSides), pick(smallSides))
                    event = random.next(2) == 0 ? .resize(width: sides.0, height: sides.1, scale: pick(scaleValues))
                        : .resize(width: sides.1, height: sides.0, scale: pick(scaleValues))
                }
                session.handle(event, at: time)
                if random.next(4) == 0 {
                    session.advance(to: time)
                    let damage = session.renderFrame()
                    XCTAssertTrue(session.frame.bounds.contains(damage.bounds), "seed \(seed): damage \(damage) outside the frame")
                }
            }
            session.finishActiveStroke()
            for stroke in session.book.sheets.flatMap(\.strokes) {
                XCTAssertTrue(stroke.points.allSatisfy(SurfaceLimits.isWithinReach), "seed \(seed): a point beyond the book's range")
            }
        }
    }

    /// Traces with numbers at the extremes of Double and Int either fail to parse (a line named)
    /// or replay to the end: never a trap, never a hang.
    func testTracesWithExtremeNumbersParseOrFailButNeverTrap() throws {
        let base = """
            {"t": 0, "kind": "touch.down", "id": 1, "x": 20, "y": 20}
            {"t": 16, "kind": "touch.motion", "id": 1, "x": 40, "y": 30}
            {"t": 33, "kind": "touch.up", "id": 1}
            {"t": 40, "kind": "pointer.motion", "x": 10, "y": 10}
            {"t": 41, "kind": "pointer.button", "button": "left", "state": "pressed"}
            {"t": 50, "kind": "pointer.motion", "x": 30, "y": 20}
            {"t": 60, "kind": "pinch.begin", "fingers": 2}
            {"t": 70, "kind": "pinch.update", "scale": 0.7, "dx": 1, "dy": 2, "rotation": 3}
            {"t": 80, "kind": "pinch.end"}
            {"t": 90, "kind": "resize", "width": 60, "height": 40, "scale": 2}
            """
        let extremes = ["1e308", "-1e308", "9223372036854775807", "-9223372036854775808", "1e-320", "1e20",
                        "1000000", "-1000000", "16384", "1e9", "0"]
        var random = SeededRandom(state: 0xE7)
        var replayed = 0
        for _ in 0..<200 {
            var text = base
            // Swap a number or two (after a colon) for extremes.
            for _ in 0..<(1 + random.next(2)) {
                let fields = text.ranges(of: /: -?[0-9.]+/)
                guard !fields.isEmpty else { break }
                text.replaceSubrange(fields[random.next(fields.count)], with: ": " + extremes[random.next(extremes.count)])
            }
            let trace: Trace
            do { trace = try Trace(parsing: text) } catch is TraceError { continue }
            let replay = Replay(trace: trace, options: .init(width: 64, height: 48))
            try replay.run()
            replay.session.finishActiveStroke()
            XCTAssertTrue(replay.session.book.sheets.flatMap(\.strokes).allSatisfy { $0.points.allSatisfy(SurfaceLimits.isWithinReach) })
            replayed += 1
        }
        XCTAssertGreaterThan(replayed, 30, "enough mutated traces parse to reach the session")
    }

    /// Books at the edges of their ranges (points at ±1000000, the thinnest and widest ink) are
    /// drawn and exported without a trap.
    func testBooksAtTheEdgesOfTheirRangesDraw() {
        let far = SurfaceLimits.farthestCoordinate
        let strokes = [
            Stroke(points: [Point(x: 10, y: 10), Point(x: far, y: far), Point(x: -far, y: 20), Point(x: 30, y: -far)]),
            Stroke(points: [Point(x: far, y: -far)], style: InkStyle(width: 1000)),
            Stroke(points: [Point(x: 5, y: 5), Point(x: 60, y: 40)], style: InkStyle(width: .leastNonzeroMagnitude)),
        ]
        let book = Sketchbook(sheets: [Sheet(strokes: strokes)], currentSheet: 0)
        for scale: BufferScale in [1, BufferScale(numerator: 150), 8] {
            let session = Session(book: book, width: 80, height: 60, scale: scale)
            _ = session.renderFrame()
        }
        let extent = SVGExport.extent(of: book.sheet)
        XCTAssertEqual(extent.width, far + 501)
        XCTAssertTrue(SVGExport.document(for: book.sheet, size: extent).contains("M1000000 -1000000"))
    }
}

private extension SeededRandom {
    /// A point on a 640×400 window or up to 30 px beyond it.
    mutating func point() -> Point { Point(x: Double(next(700)) - 30, y: Double(next(460)) - 30) }
}
