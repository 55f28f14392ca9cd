import FolioCore
import FolioGeometry
import FolioGestures
import FolioInput
import FolioSketchbook
import FolioRandom
import FolioTools
import XCTest

/// Pen, eraser, palms and fingers mixed at random, with values at the edges of what a compositor
/// can send: the session never traps, every stroke and eraser pass ends, and what the book keeps
/// is in range.
final class PenFuzzTests: XCTestCase {
    func testPenPalmAndFingersAtRandomNeverBreakTheSession() {
        let coordinates: [Double] = [8_388_608, -8_388_608, .nan, .infinity, 1e20, 0, 20, 150, 300, 333.3, 610]
        let pressures: [Double?] = [nil, 0, 1, 0.5, -1, 2, .nan, .infinity]
        let tools = TabletTool.allCases
        let keys = ["ctrl+z", "ctrl+shift+z", "bracketright", "bracketleft", "Next"].compactMap(KeyChord.init(parsing:))
        var penStrokes = 0, passes = 0
        for seed in 1...12 {
            var random = SeededRandom(state: UInt64(seed) &* 0x51ED)
            func pick<T>(_ values: [T]) -> T { values[random.next(values.count)] }
            let session = Session(width: 640, height: 400)
            session.penOnly = seed % 4 == 0
            var time = 0.0
            for _ in 0..<400 {
                time += pick([0, 1, 8, 16, 300, 600])
                let p = Point(x: pick(coordinates), y: pick(coordinates))
                let event: InputEvent
                switch random.next(16) {
                case 0: event = .tabletProximityIn(tool: pick(tools))
                case 1: event = .tabletProximityOut
                case 2: event = .tabletDown
                case 3: event = .tabletUp
                case 4, 5, 6: event = .tabletMotion(to: p, pressure: pick(pressures),
                                                     tilt: random.next(2) == 0 ? nil : PenTilt(x: pick(coordinates), y: pick(coordinates)))
                case 7: event = .tabletButton(random.next(400), pressed: random.next(2) == 0)
                case 8, 9: event = .tabletFrame
                case 10: event = .touchDown(id: Int32(random.next(3)), at: p)
                case 11: event = .touchMotion(id: Int32(random.next(3)), to: p)
                case 12: event = .touchShape(id: Int32(random.next(3)), major: pick(coordinates), minor: pick(coordinates))
                case 13: event = random.next(2) == 0 ? .touchUp(id: Int32(random.next(3))) : .touchFrame
                case 14: event = .key(pick(keys), pressed: true)
                default:
                    session.choose(random.next(2) == 0 ? .eraser : .ink)
                    continue
                }
                session.handle(event, at: time)
                if random.next(3) == 0 {
                    session.advance(to: time)
                    let damage = session.renderFrame()
                    XCTAssertTrue(session.frame.bounds.contains(damage.bounds), "seed \(seed): damage \(damage) outside the frame")
                }
            }
            for event: InputEvent in [.tabletUp, .tabletProximityOut, .tabletFrame, .touchCancel] { session.handle(event, at: time + 1) }
            if let open = KeyChord(parsing: "bracketleft") { session.handle(.key(open, pressed: true), at: time + 1) }
            session.advance(to: time + 10_000)
            _ = session.renderFrame()
            XCTAssertEqual(session.mode, .idle, "seed \(seed)")
            let names = session.timeline.map(\.name)
            XCTAssertEqual(names.filter { $0 == "stroke.began" }.count,
                           names.filter { $0 == "stroke.ended" || $0 == "stroke.withdrawn" }.count, "seed \(seed)")
            XCTAssertEqual(names.filter { $0 == "erase.began" }.count,
                           names.filter { $0 == "erase.ended" || $0 == "erase.withdrawn" }.count, "seed \(seed)")
            passes += names.filter { $0 == "erase.ended" }.count
            penStrokes += session.book.sheets.flatMap(\.strokes).filter { $0.pressures != nil }.count
            for stroke in session.book.sheets.flatMap(\.strokes) {
                XCTAssertTrue(stroke.points.allSatisfy(SurfaceLimits.isWithinReach), "seed \(seed): a point beyond the book's range")
                XCTAssertTrue(stroke.pressures?.allSatisfy { (0...1).contains($0) } ?? true, "seed \(seed): a pressure outside 0–1")
                if let pressures = stroke.pressures { XCTAssertEqual(pressures.count, stroke.points.count) }
            }
        }
        XCTAssertGreaterThan(penStrokes, 0, "the pen drew")
        XCTAssertGreaterThan(passes, 0, "the eraser erased")
    }
}
