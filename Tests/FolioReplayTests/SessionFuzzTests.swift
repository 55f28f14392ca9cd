import FolioCore
import FolioGeometry
import FolioInput
import XCTest

/// Impossible and unlikely input (ids that never went down, downs twice, cancels mid-pinch,
/// keys and resizes in between) must never crash the session or leave it stuck.
final class SessionFuzzTests: XCTestCase {
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func point() -> Point { Point(x: Double(next(700)) - 30, y: Double(next(460)) - 30) }
    }

    func testRandomInputNeverBreaksTheSession() throws {
        let keys = ["ctrl+z", "ctrl+shift+z", "ctrl+y", "bracketright", "bracketleft", "ctrl+s", "F11", "x"]
            .compactMap(KeyChord.init(parsing:))
        for seed in 1...16 {
            var random = Generator(state: UInt64(seed))
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
                default: event = .resize(width: 160 + random.next(320), height: 120 + random.next(200), scale: 1 + random.next(2))
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
}
