import Foundation
import FolioGeometry
import FolioPixels
import TestCompositor
import XCTest

/// The pen over a real Wayland socket: the test compositor advertises a tablet with a pen and an
/// eraser (tablet-v2) and sends what a pen tablet sends; the committed pixels must follow.
final class PenProtocolTests: XCTestCase {
    /// Folio's default pressure curve: 2 px at the lightest touch, 9 px at the firmest, linear.
    static func width(atPressure p: Double) -> Double { 2 + 7 * p }

    /// Touches down with the pen and draws through `points`, `pressure(i)` (0–65535) at point i,
    /// one tablet frame per point, waiting for the commit each motion causes; then lifts.
    func penStroke(_ folio: FolioUnderTest, _ points: [Point], pressure: (Int) -> UInt32, lift: Bool = true) throws {
        guard let first = points.first else { return }
        try folio.compositor.sendTablet([.proximityIn(.pen), .motion(x: first.x, y: first.y), .pressure(pressure(0)), .frame])
        try folio.compositor.sendTablet([.down, .frame])
        for (i, p) in points.enumerated().dropFirst() {
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTablet([.motion(x: p.x, y: p.y), .pressure(pressure(i)), .tilt(x: 20, y: -10), .frame])
            _ = try folio.compositor.waitForCommit(after: last)
        }
        if lift { try folio.compositor.sendTablet([.up, .frame]) }
    }

    /// Rows of column `x` that are at least half ink (blue over white: red falls with coverage).
    static func inkHeight(_ image: Image, x: Int) -> Int {
        (0..<image.height).count { Ink.channels(image.pixel(x: x, y: $0)).r < 128 }
    }

    func testCommittedInkWidthFollowsAPressureRamp() throws {
        let folio = try FolioUnderTest(tablet: true)
        let points = line(from: Point(x: 60, y: 240), to: Point(x: 580, y: 240), count: 66)
        try penStroke(folio, points, pressure: { UInt32(Double($0) / 65 * 65535) })
        try folio.settle()
        let image = try folio.compositor.surfaceImage()
        for x in stride(from: 100, through: 540, by: 40) {
            let pressure = (Double(x) - 60) / 520
            let measured = Double(Self.inkHeight(image, x: x))
            // Rows at least half covered: within 1 px of the width the curve gives.
            XCTAssertEqual(measured, Self.width(atPressure: pressure), accuracy: 1.0,
                           "ink height at x = \(x) (pressure \(pressure)); image in \(folio.save(image, as: "pen-ramp"))")
        }
        try folio.compositor.sendTablet([.proximityOut, .frame])
    }

    func testNoInkFromATouchWhileThePenHoversAndInkAgain600msAfterItLeft() throws {
        let folio = try FolioUnderTest(tablet: true)
        try folio.compositor.sendTablet([.proximityIn(.pen), .motion(x: 500, y: 400), .frame])
        let palm = line(from: Point(x: 100, y: 100), to: Point(x: 400, y: 140), count: 20)
        let before = folio.compositor.lastCommitIndex
        try folio.compositor.sendTouch([.down(id: 1, x: palm[0].x, y: palm[0].y), .frame])
        for p in palm.dropFirst() { try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame]) }
        try folio.compositor.sendTouch([.up(id: 1), .frame])
        try folio.settle()
        let hovering = try folio.compositor.surfaceImage()
        XCTAssertEqual(hovering.count(where: { !Ink.isPaper($0) }), 0,
                       "a touch while the pen hovers leaves no ink (\(folio.save(hovering, as: "palm-hover")))")
        XCTAssertEqual(folio.compositor.lastCommitIndex, before, "and commits nothing")

        try folio.compositor.sendTablet([.proximityOut, .frame])
        Thread.sleep(forTimeInterval: 0.6)
        let finger = line(from: Point(x: 100, y: 300), to: Point(x: 400, y: 320), count: 20)
        try folio.stroke(finger)
        try folio.waitForImage("a finger's ink 600 ms after the pen left") { image in
            finger.dropFirst(3).dropLast(3).allSatisfy { Ink.isInk(image.pixel(x: Int($0.x), y: Int($0.y))) }
        }
    }

    func testAPinchStillFoldsWhileThePenHovers() throws {
        let folio = try FolioUnderTest(tablet: true)
        try folio.compositor.sendTablet([.proximityIn(.pen), .motion(x: 600, y: 60), .frame])
        var events: [TouchEvent] = [.down(id: 1, x: 120, y: 240), .down(id: 2, x: 520, y: 240), .frame]
        for step in 1...10 {
            let d = 200 - 50 * Double(step) / 10
            events += [.motion(id: 1, x: 320 - d, y: 240), .motion(id: 2, x: 320 + d, y: 240), .frame]
        }
        try folio.compositor.sendTouch(events)
        // The curtain behind the folded pages shows at the window's edge.
        try folio.waitForImage("the fold while the pen hovers") { image in
            let c = Ink.channels(image.pixel(x: 2, y: 240))
            return c.r < 100 && c.g < 100 && c.b < 100
        }
        try folio.compositor.sendTouch([.up(id: 1), .up(id: 2), .frame])
        try folio.settle()
        let after = try folio.compositor.surfaceImage()
        XCTAssertEqual(after.count(where: { !Ink.isPaper($0) }), 0, "the pinch left no ink (\(folio.save(after, as: "pen-pinch")))")
    }

    func testTheEraserEndRemovesTheStrokeItCrosses() throws {
        let folio = try FolioUnderTest(tablet: true)
        let kept = try drawTwoStrokes(folio)
        try folio.compositor.sendTablet([.proximityOut, .frame])
        try folio.compositor.sendTablet([.proximityIn(.eraser), .motion(x: 320, y: 250), .frame, .down, .frame])
        try crossTheLowerStroke(folio)
        try folio.compositor.sendTablet([.up, .frame, .proximityOut, .frame])
        try checkOnlyTheLowerStrokeErased(folio, kept: kept, "eraser")
    }

    /// Holding the barrel button (BTN_STYLUS) the pen erases what it crosses; let go, it draws.
    func testHoldingTheBarrelButtonMakesThePenErase() throws {
        let folio = try FolioUnderTest(tablet: true)
        let kept = try drawTwoStrokes(folio)
        try folio.compositor.sendTablet([.motion(x: 320, y: 250), .button(0x14b, pressed: true), .frame, .down, .frame])
        try crossTheLowerStroke(folio)
        try folio.compositor.sendTablet([.up, .frame, .button(0x14b, pressed: false), .frame])
        try checkOnlyTheLowerStrokeErased(folio, kept: kept, "barrel-eraser")
        // The button let go, the same pen draws again where it erased.
        try penStroke(folio, line(from: Point(x: 100, y: 300), to: Point(x: 540, y: 300), count: 20), pressure: { _ in 40000 })
        _ = try folio.waitForImage("ink again after the button is let go") { image in
            Ink.isInk(image.pixel(x: 320, y: 300))
        }
        try folio.compositor.sendTablet([.proximityOut, .frame])
    }

    /// `pen.barrel_button = "none"` in config.toml reaches the live app: a pen with the barrel
    /// button held draws.
    func testWithTheBarrelButtonSetToNoneThePenDrawsWithItHeld() throws {
        let folio = try FolioUnderTest(tablet: true, settings: "[pen]\nbarrel_button = \"none\"\n")
        let points = line(from: Point(x: 100, y: 200), to: Point(x: 540, y: 200), count: 20)
        try folio.compositor.sendTablet([.proximityIn(.pen), .motion(x: points[0].x, y: points[0].y), .pressure(40000),
                                         .button(0x14b, pressed: true), .frame])
        try folio.compositor.sendTablet([.down, .frame])
        for p in points.dropFirst() { try folio.compositor.sendTablet([.motion(x: p.x, y: p.y), .pressure(40000), .frame]) }
        try folio.compositor.sendTablet([.up, .frame, .button(0x14b, pressed: false), .proximityOut, .frame])
        _ = try folio.waitForImage("ink drawn with the barrel button held") { image in
            points.dropFirst(2).dropLast(2).allSatisfy { Ink.isInk(image.pixel(x: Int($0.x), y: Int($0.y))) }
        }
        XCTAssertFalse(folio.client.standardError.contains("barrel_button"), folio.client.standardError)
    }

    // MARK: Erasing

    /// Two level pen strokes across the window, at y = 100 and y = 300; returns the upper one,
    /// which the erase tests leave alone.
    private func drawTwoStrokes(_ folio: FolioUnderTest) throws -> [Point] {
        let kept = line(from: Point(x: 100, y: 100), to: Point(x: 540, y: 100), count: 20)
        try penStroke(folio, kept, pressure: { _ in 40000 })
        try penStroke(folio, line(from: Point(x: 100, y: 300), to: Point(x: 540, y: 300), count: 20), pressure: { _ in 40000 })
        return kept
    }

    /// Moves the tool, already down at (320, 250), down across the lower stroke.
    private func crossTheLowerStroke(_ folio: FolioUnderTest) throws {
        for y in stride(from: 260.0, through: 350, by: 10) { try folio.compositor.sendTablet([.motion(x: 322, y: y), .frame]) }
    }

    /// Waits until nothing is left around the lower stroke, and checks the upper one stays.
    private func checkOnlyTheLowerStrokeErased(_ folio: FolioUnderTest, kept: [Point], _ name: String) throws {
        let image = try folio.waitForImage("the crossed stroke erased") { image in
            image.count(in: PixelRect(x: 0, y: 250, width: 640, height: 100)) { !Ink.isPaper($0) } == 0
        }
        XCTAssertTrue(kept.dropFirst(2).dropLast(2).allSatisfy { Ink.isInk(image.pixel(x: Int($0.x), y: Int($0.y))) },
                      "the stroke the tool did not cross stays (\(folio.save(image, as: name)))")
    }
}
