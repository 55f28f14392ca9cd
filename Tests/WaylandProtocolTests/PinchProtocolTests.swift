import Foundation
import FolioGeometry
import FolioLayers
import FolioPixels
import TestCompositor
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The pinch fold over a real Wayland socket: touch and touchpad pinches in, fold
/// frames out, checked against the geometry FoldScene defines; and what survives a lost compositor.
final class PinchProtocolTests: XCTestCase {
    let width = 640.0, height = 480.0
    /// A stroke the pages must carry through the fold, clear of the pinching fingers' row.
    let inkPoints = line(from: Point(x: 100, y: 110), to: Point(x: 540, y: 150), count: 30)

    // MARK: Geometry and pixels

    /// Where the outer edges of the left and right pages cross mid-height at fold scale `s`:
    /// FoldScene's page transforms projected for this window.
    func expectedOuterEdges(scale s: Double) -> (left: Double, right: Double) {
        let scene = FoldScene(width: width, height: height)
        scene.setScale(s)
        var edges: [Double] = []
        for page in scene.pages {
            let outerX = page.side == .left ? page.shadowLayer.bounds.minX : page.shadowLayer.bounds.maxX
            let projected = page.shadowLayer.transformToRoot.project(Point(x: outerX, y: height / 2))
            edges.append(projected?.x ?? .nan)
        }
        return (edges[0], edges[1])
    }

    static func luminance(_ pixel: UInt32) -> Int {
        let c = Ink.channels(pixel)
        return (c.r * 299 + c.g * 587 + c.b * 114) / 1000
    }

    /// Lit paper, against the dark curtain and the shadows around the pages.
    static func isPage(_ pixel: UInt32) -> Bool { luminance(pixel) >= 128 }

    /// The outermost page pixels on the middle row, from the left and from the right.
    func measuredOuterEdges(_ image: Image) -> (left: Int, right: Int)? {
        let y = image.height / 2
        guard let left = (0..<image.width).first(where: { Self.isPage(image.pixel(x: $0, y: y)) }),
              let right = (0..<image.width).reversed().first(where: { Self.isPage(image.pixel(x: $0, y: y)) })
        else { return nil }
        return (left, right + 1)
    }

    /// Whether `image` shows the fold at scale `s`: both outer edges within 2 px of the projection.
    func showsFold(_ image: Image, scale s: Double) -> Bool {
        guard image.width == Int(width), let measured = measuredOuterEdges(image) else { return false }
        let expected = expectedOuterEdges(scale: s)
        return abs(Double(measured.left) - expected.left) <= 2 && abs(Double(measured.right) - expected.right) <= 2
    }

    func describeEdges(_ image: Image, scale s: Double) -> String {
        let expected = expectedOuterEdges(scale: s)
        let measured = measuredOuterEdges(image).map { "(\($0.left), \($0.right))" } ?? "none"
        return "page edges at mid-height \(measured), expected (\(expected.left), \(expected.right)) for scale \(s)"
    }

    // MARK: Input

    /// Two fingers on the middle row, `distance` apart, centred.
    func fingers(_ distance: Double) -> (Point, Point) {
        (Point(x: width / 2 - distance / 2, y: height / 2), Point(x: width / 2 + distance / 2, y: height / 2))
    }

    /// Two fingers land `from` apart and move to `to` apart over `steps` touch frames, without
    /// waiting for frames; `perFinger` sends a frame per finger, as Mutter does.
    func pinch(_ folio: FolioUnderTest, from: Double, to: Double, steps: Int = 10, perFinger: Bool = false) throws {
        let (a, b) = fingers(from)
        var events: [TouchEvent] = perFinger
            ? [.down(id: 1, x: a.x, y: a.y), .frame, .down(id: 2, x: b.x, y: b.y), .frame]
            : [.down(id: 1, x: a.x, y: a.y), .down(id: 2, x: b.x, y: b.y), .frame]
        for step in 1...steps {
            let (p, q) = fingers(from + (to - from) * Double(step) / Double(steps))
            events += perFinger
                ? [.motion(id: 1, x: p.x, y: p.y), .frame, .motion(id: 2, x: q.x, y: q.y), .frame]
                : [.motion(id: 1, x: p.x, y: p.y), .motion(id: 2, x: q.x, y: q.y), .frame]
        }
        try folio.compositor.sendTouch(events)
    }

    func release(_ folio: FolioUnderTest) throws {
        try folio.compositor.sendTouch([.up(id: 1), .up(id: 2), .frame])
    }

    /// Draws `inkPoints` and waits until the client is quiet; the canvas as it stands then.
    func drawInk(_ folio: FolioUnderTest) throws -> Image {
        try folio.stroke(inkPoints)
        try folio.waitForImage("the ink before the pinch") { image in
            self.centreLine(self.inkPoints).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        try folio.settle()
        return try folio.compositor.surfaceImage()
    }

    func centreLine(_ points: [Point]) -> [(Int, Int)] {
        guard let a = points.first, let b = points.last else { return [] }
        return stride(from: 0.1, through: 0.9, by: 0.02).map { t in (Int(a.x + (b.x - a.x) * t), Int(a.y + (b.y - a.y) * t)) }
    }

    // MARK: Touch pinch

    func testPinchHoldShowsFoldFramesAndReleaseBringsBackTheCanvas() throws {
        let folio = try FolioUnderTest()
        let canvas = try drawInk(folio)
        let start = folio.compositor.lastCommitIndex
        try pinch(folio, from: 400, to: 300)
        let folded = try folio.waitForImage("the fold at scale 0.75") { self.showsFold($0, scale: 0.75) }
        try folio.settle()
        let held = try folio.compositor.surfaceImage()
        XCTAssertTrue(held == folded, "holding still changes nothing")

        let foldCommits = folio.compositor.observation.commits.dropFirst(start + 1).filter(\.attached)
        XCTAssertFalse(foldCommits.isEmpty)
        let bounds = PixelRect(x: 0, y: 0, width: Int(width), height: Int(height))
        for commit in foldCommits {
            XCTAssertTrue(commit.damage.contains { $0.contains(bounds) }, "fold commit \(commit.index) damages the whole frame: \(commit.damage)")
        }
        let expected = expectedOuterEdges(scale: 0.75)
        XCTAssertGreaterThan(expected.left, 10, "at 0.75 the pages leave the screen edges free")
        let middle = Int(height) / 2
        for x in [0, Int(expected.left) - 6, Int(width) - 1, Int(expected.right) + 6] {
            XCTAssertLessThan(Self.luminance(held.pixel(x: x, y: middle)), 100,
                              "the dark backdrop shows at (\(x), \(middle)) beside the pages (\(folio.save(held, as: "pinch-hold")))")
        }
        XCTAssertTrue(showsFold(held, scale: 0.75), describeEdges(held, scale: 0.75))
        XCTAssertGreaterThan(held.count { Ink.channels($0).b > Ink.channels($0).r + 60 }, 0, "the folded pages carry the (shaded) ink")

        try release(folio)
        try folio.waitForImage("the flat canvas after the unfold") { $0 == canvas }
        try folio.settle()
        let after = try folio.compositor.surfaceImage()
        XCTAssertTrue(after == canvas, "the ink drawn before is intact and the pinch left none (\(folio.save(after, as: "pinch-after")))")
    }

    func testPinchUpdatesFasterThanFramesNeverQueue() throws {
        let folio = try FolioUnderTest(pacing: .manual, captureBuffers: true)
        try folio.compositor.sendFrameDone()
        try folio.settle()
        let start = folio.compositor.lastCommitIndex
        // Fifty touch frames with no frame callback answered: forty-nine creep from 400 px to
        // 380 px apart (scale ≥ 0.95), the last jumps to 300 px (0.75).
        let (a, b) = fingers(400)
        var events: [TouchEvent] = [.down(id: 1, x: a.x, y: a.y), .down(id: 2, x: b.x, y: b.y), .frame]
        for step in 1...50 {
            let (p, q) = fingers(step < 50 ? 400 - Double(step) * 20 / 49 : 300)
            events += [.motion(id: 1, x: p.x, y: p.y), .motion(id: 2, x: q.x, y: q.y), .frame]
        }
        try folio.compositor.sendTouch(events)
        try folio.settle()
        let during = folio.compositor.observation.commits.dropFirst(start + 1).filter(\.attached)
        XCTAssertLessThanOrEqual(during.count, 1, "without frame callbacks answered, at most one frame is committed")

        let before = folio.compositor.lastCommitIndex
        try folio.compositor.sendFrameDone()
        let next = try folio.compositor.waitForCommit(after: before)
        let image = try XCTUnwrap(next.pixels)
        let intermediate = expectedOuterEdges(scale: 380.0 / 400), newest = expectedOuterEdges(scale: 0.75)
        XCTAssertGreaterThan(abs(intermediate.left - newest.left), 20, "the newest scale is told apart from any earlier one")
        XCTAssertTrue(showsFold(image, scale: 0.75),
                      "the frame after the callback shows the newest scale: \(describeEdges(image, scale: 0.75)) (\(folio.save(image, as: "pinch-newest")))")
        try release(folio)
        try folio.compositor.sendFrameDone()
    }

    func testFingersInSeparateFramesFoldLikeFingersInOneFrame() throws {
        var images: [(folded: Image, flat: Image)] = []
        for perFinger in [false, true] {
            let folio = try FolioUnderTest()
            let canvas = try drawInk(folio)
            try pinch(folio, from: 400, to: 300, perFinger: perFinger)
            try folio.waitForImage("the fold at scale 0.75") { self.showsFold($0, scale: 0.75) }
            try folio.settle()
            let folded = try folio.compositor.surfaceImage()
            if perFinger {
                try folio.compositor.sendTouch([.up(id: 1), .frame, .up(id: 2), .frame])
            } else {
                try release(folio)
            }
            try folio.waitForImage("the flat canvas after the unfold") { $0 == canvas }
            try folio.settle()
            images.append((folded, try folio.compositor.surfaceImage()))
        }
        XCTAssertTrue(images[0].folded == images[1].folded, "the same fold either way")
        XCTAssertTrue(images[0].flat == images[1].flat, "the same canvas after the unfold either way")
    }

    // MARK: The 300 ms rule

    /// Finger 1 draws (its events stamped from `stamp` on, 5 ms apart) and waits until its ink shows.
    func drawWithFirstFinger(_ folio: FolioUnderTest, _ points: [Point], from stamp: UInt32) throws {
        try folio.compositor.sendTouch([.down(id: 1, x: points[0].x, y: points[0].y), .frame], stamp: stamp)
        for (i, p) in points.enumerated().dropFirst() {
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame], stamp: stamp &+ UInt32(i * 5))
            _ = try folio.compositor.waitForCommit(after: last)
        }
        try folio.waitForImage("the first finger's ink") { image in
            self.centreLine(points).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
    }

    /// The second finger lands at `stamp` (finger 1 still down, where `points` ended); both
    /// pinch in and lift; returns once the book has opened again and the client is quiet.
    func pinchWithSecondFinger(_ folio: FolioUnderTest, after points: [Point], at stamp: UInt32) throws -> Image {
        let first = try XCTUnwrap(points.last)
        try folio.compositor.sendTouch([.down(id: 2, x: first.x + 300, y: first.y), .frame], stamp: stamp)
        for step in 1...10 {
            let d = Double(step) * 8
            try folio.compositor.sendTouch([.motion(id: 1, x: first.x + d, y: first.y), .motion(id: 2, x: first.x + 300 - d, y: first.y), .frame],
                                           stamp: stamp &+ UInt32(step * 10))
        }
        try folio.waitForImage("the fold") { image in Self.luminance(image.pixel(x: 0, y: image.height / 2)) < 100 }
        try folio.compositor.sendTouch([.up(id: 1), .up(id: 2), .frame], stamp: stamp &+ 200)
        try folio.waitForImage("the flat canvas after the unfold") { image in
            (0..<image.height).allSatisfy { Self.isPage(image.pixel(x: 0, y: $0)) && Self.isPage(image.pixel(x: image.width - 1, y: $0)) }
        }
        try folio.settle()
        return try folio.compositor.surfaceImage()
    }

    let firstFinger = line(from: Point(x: 80, y: 300), to: Point(x: 200, y: 330), count: 12)

    func testStrokeOfAFingerThatLandedUnder300msBeforeThePinchIsWithdrawn() throws {
        let folio = try FolioUnderTest(capabilities: [.touch, .keyboard])
        _ = try folio.compositor.wait(for: "a wl_keyboard") { $0.keyboardObjects > 0 ? true : nil }
        let older = line(from: Point(x: 80, y: 60), to: Point(x: 560, y: 80), count: 30)
        try folio.stroke(older)
        try folio.settle()
        let t0 = TestCompositor.inputTimestamp
        try drawWithFirstFinger(folio, firstFinger, from: t0)
        let after = try pinchWithSecondFinger(folio, after: firstFinger, at: t0 &+ 150)
        XCTAssertTrue(centreLine(older).allSatisfy { Ink.isInk(after.pixel(x: $0.0, y: $0.1)) }, "the older stroke stays")
        let bounds = inkBounds(older)
        XCTAssertEqual(after.count(where: { !Ink.isPaper($0) }) - after.count(in: bounds, where: { !Ink.isPaper($0) }), 0,
                       "the stroke begun 150 ms before the pinch leaves no ink (\(folio.save(after, as: "withdrawn")))")
        // No undo entry either: the first undo takes back the older stroke.
        try folio.compositor.press(KeyCode.z, modifiers: .control)
        try folio.waitForImage("a white canvas after one Ctrl+Z") { $0.count(where: Ink.isPaper) == $0.width * $0.height }
    }

    func testStrokeOfAFingerThatLandedOver300msBeforeThePinchIsKept() throws {
        let folio = try FolioUnderTest()
        try folio.settle()
        let t0 = TestCompositor.inputTimestamp
        try drawWithFirstFinger(folio, firstFinger, from: t0)
        // The second finger's stamp is 400 ms after the first's, and not in the future.
        while TestCompositor.inputTimestamp &- t0 < 400 { Thread.sleep(forTimeInterval: 0.05) }
        let after = try pinchWithSecondFinger(folio, after: firstFinger, at: t0 &+ 400)
        XCTAssertTrue(centreLine(firstFinger).allSatisfy { Ink.isInk(after.pixel(x: $0.0, y: $0.1)) },
                      "the stroke begun 400 ms before the pinch is kept (\(folio.save(after, as: "kept")))")
        let bounds = inkBounds(firstFinger)
        XCTAssertEqual(after.count(where: { !Ink.isPaper($0) }) - after.count(in: bounds, where: { !Ink.isPaper($0) }), 0,
                       "no ink beyond the first finger's stroke")
    }

    // MARK: Touchpad pinch

    func testTouchpadPinchFoldsLikeATouchPinch() throws {
        let touch = try FolioUnderTest()
        _ = try drawInk(touch)
        try pinch(touch, from: 400, to: 300)
        try touch.waitForImage("the touch fold at scale 0.75") { self.showsFold($0, scale: 0.75) }
        try touch.settle()
        let touchFold = try touch.compositor.surfaceImage()

        let folio = try FolioUnderTest()
        _ = try folio.waitWhileRunning("a touchpad pinch object") { $0.pinchGestureObjects > 0 ? true : nil }
        let canvas = try drawInk(folio)
        try folio.compositor.sendPointer([.motion(x: width / 2, y: height / 2), .frame])
        try folio.compositor.sendPinch([.begin(fingers: 2), .update(dx: 0, dy: 0, scale: 0.9, rotation: 0),
                                        .update(dx: 0, dy: 0, scale: 0.75, rotation: 0)])
        let folded = try folio.waitForImage("the touchpad fold at scale 0.75") { self.showsFold($0, scale: 0.75) }
        try folio.settle()
        XCTAssertTrue(try folio.compositor.surfaceImage() == folded)
        XCTAssertTrue(folded == touchFold, "the touchpad pinch folds exactly like the touch pinch (\(folio.save(folded, as: "touchpad")), \(touch.save(touchFold, as: "touch")))")
        try folio.compositor.sendPinch([.end(cancelled: false)])
        try folio.waitForImage("the flat canvas after the touchpad unfold") { $0 == canvas }
    }

    // MARK: Durability

    /// Folio on a book of its own (the folder returned), a finger down halfway through a stroke.
    func halfDrawnStroke() throws -> (FolioUnderTest, String) {
        let book = try FolioUnderTest.temporaryDirectory()
        let folio = try FolioUnderTest(arguments: ["--book", book])
        let points = line(from: Point(x: 100, y: 200), to: Point(x: 500, y: 260), count: 30)
        try folio.compositor.sendTouch([.down(id: 1, x: points[0].x, y: points[0].y), .frame])
        for p in points.prefix(15).dropFirst() {
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame])
            _ = try folio.compositor.waitForCommit(after: last)
        }
        return (folio, book)
    }

    func testCompositorDestroyedMidStrokeKeepsTheStrokeInTheBook() throws {
        let (folio, book) = try halfDrawnStroke()
        defer { try? FileManager.default.removeItem(atPath: book) }
        folio.compositor.stop()
        let status = try folio.client.waitForExit()
        let stderr = folio.client.standardError
        XCTAssertEqual(status, 0, "exit status (nil: killed by signal \(folio.client.terminatingSignal ?? 0)); stderr: \(stderr)")
        let lines = stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line: \(stderr)")
        XCTAssertTrue(stderr.contains(book), "the line names the book: \(stderr)")
        XCTAssertEqual(try bookInfo(book), #"{"sheets":[{"strokes":1,"paper":"plain"}]}"#)
    }

    /// A protocol error ends the connection like a vanished compositor: one line naming the object
    /// and the compositor's message, status 0, and the stroke kept.
    func testProtocolErrorMidStrokeIsLoggedWithItsObjectAndMessageAndKeepsTheStroke() throws {
        let (folio, book) = try halfDrawnStroke()
        defer { try? FileManager.default.removeItem(atPath: book) }
        try folio.compositor.postProtocolError(code: 7, message: "the test compositor objects")
        let status = try folio.client.waitForExit()
        let stderr = folio.client.standardError
        XCTAssertEqual(status, 0, "exit status (nil: killed by signal \(folio.client.terminatingSignal ?? 0)); stderr: \(stderr)")
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, "one line: \(stderr)")
        XCTAssertTrue(stderr.contains("protocol error 7 on xdg_toplevel#"), stderr)
        XCTAssertTrue(stderr.contains(": the test compositor objects"), stderr)
        XCTAssertEqual(try bookInfo(book), #"{"sheets":[{"strokes":1,"paper":"plain"}]}"#)
    }

    func testSIGTERMMidStrokeExitsCleanlyAndKeepsTheStroke() throws {
        let (folio, book) = try halfDrawnStroke()
        defer { try? FileManager.default.removeItem(atPath: book) }
        XCTAssertEqual(kill(folio.client.processIdentifier, SIGTERM), 0)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
        XCTAssertEqual(try bookInfo(book), #"{"sheets":[{"strokes":1,"paper":"plain"}]}"#)
    }
}
