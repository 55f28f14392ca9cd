@testable import FolioCore
import FolioGeometry
import FolioInput
@testable import FolioRender
import XCTest

/// A stroke that keeps crossing itself (shading, hatching) costs in proportion to its points while
/// it is drawn, as a smooth one does: the ink rasterised for four times the points is at most five
/// times as much, for a finger, the mouse and a pen. Counted in polygons, never timed.
final class LiveStrokeCostTests: XCTestCase {
    private enum Device: CaseIterable { case finger, mouse, pen }

    /// Back-and-forth hatching over one 120 px patch, gone over again and again: the more points,
    /// the more ink lies under each new one.
    private func scribble(_ count: Int) -> [Point] {
        var points: [Point] = []
        var x = 200.0, y = 150.0, step = 8.0
        for _ in 0..<count {
            points.append(Point(x: x, y: y))
            x += step
            y += 0.6
            if x > 320 || x < 200 { step = -step; x += 2 * step }
            if y > 270 { y = 150 }
        }
        return points
    }

    /// The polygons rasterised to draw `points` as one stroke, a frame rendered every other point.
    private func work(_ device: Device, _ points: [Point]) -> Int {
        let session = Session(width: 640, height: 480)
        let before = session.display.canvas.inkRasterised
        var time = 0.0
        func send(_ events: [InputEvent]) {
            for event in events { session.handle(event, at: time) }
        }
        for (index, p) in points.enumerated() {
            time += 4
            switch (device, index) {
            case (.finger, 0): send([.touchDown(id: 1, at: p), .touchFrame])
            case (.finger, _): send([.touchMotion(id: 1, to: p), .touchFrame])
            case (.mouse, 0): send([.pointerMotion(to: p), .pointerButton(.left, pressed: true)])
            case (.mouse, _): send([.pointerMotion(to: p)])
            case (.pen, 0): send([.tabletProximityIn(tool: .pen), .tabletMotion(to: p, pressure: 0.5, tilt: nil), .tabletFrame,
                                  .tabletDown, .tabletFrame])
            case (.pen, _): send([.tabletMotion(to: p, pressure: 0.5 + 0.4 * sin(Double(index) / 37), tilt: nil), .tabletFrame])
            }
            if index % 2 == 1 { _ = session.renderFrame() }
        }
        time += 4
        switch device {
        case .finger: send([.touchUp(id: 1), .touchFrame])
        case .mouse: send([.pointerButton(.left, pressed: false)])
        case .pen: send([.tabletUp, .tabletFrame, .tabletProximityOut, .tabletFrame])
        }
        _ = session.renderFrame()
        XCTAssertEqual(session.book.sheet.strokes.count, 1, "\(device)")
        return session.display.canvas.inkRasterised - before
    }

    func testASelfCrossingStrokeCostsInProportionToItsPoints() {
        for device in Device.allCases {
            let small = work(device, scribble(400)), large = work(device, scribble(1600))
            XCTAssertGreaterThan(small, 0, "\(device)")
            XCTAssertLessThanOrEqual(Double(large), 5 * Double(small), "\(device): \(small) polygons for 400 points, \(large) for 1600")
        }
    }
}
