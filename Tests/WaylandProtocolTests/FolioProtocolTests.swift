import Foundation
import FolioGeometry
import FolioPixels
import TestCompositor
import XCTest

/// Folio as a Wayland client, seen from a real (test) compositor: real wl_touch events in,
/// committed shm buffers out, their pixels and damage checked.
final class FolioProtocolTests: XCTestCase {
    /// A horizontal-ish stroke well inside a 640x480 window.
    let strokePoints = line(from: Point(x: 120, y: 200), to: Point(x: 520, y: 260), count: 40)

    /// Pixels on the stroke's centre line (its middle 80 %, away from the round caps).
    func centreLine(_ points: [Point], scale: Double = 1) -> [(Int, Int)] {
        guard let a = points.first, let b = points.last else { return [] }
        return stride(from: 0.1, through: 0.9, by: 0.02).map { t in
            (Int((a.x + (b.x - a.x) * t) * scale), Int((a.y + (b.y - a.y) * t) * scale))
        }
    }

    func testWindowIsATitledToplevelWithWhiteCanvas() throws {
        let folio = try FolioUnderTest()
        let toplevel = try folio.compositor.waitForToplevel()
        XCTAssertEqual(toplevel.title, "Folio")
        XCTAssertEqual(toplevel.appID, "io.folio.Folio")
        XCTAssertGreaterThan(toplevel.minWidth, 0, "a minimum size")
        XCTAssertGreaterThan(toplevel.minHeight, 0, "a minimum size")
        let first = try XCTUnwrap(folio.compositor.observation.commits.first { $0.buffer != nil })
        XCTAssertEqual(first.width, 640)
        XCTAssertEqual(first.height, 480)
        let image = try folio.waitForImage("a white canvas") { $0.count(where: Ink.isPaper) == $0.width * $0.height }
        XCTAssertEqual(image.width, 640)
        try folio.compositor.ping()
    }

    func testDefaultSizeWhenTheCompositorLeavesItToTheClient() throws {
        let folio = try FolioUnderTest(width: 0, height: 0)
        let first = try XCTUnwrap(folio.compositor.observation.commits.first { $0.buffer != nil })
        XCTAssertEqual(first.width, 1280)
        XCTAssertEqual(first.height, 800)
    }

    func testTouchStrokeDrawsBlueInkAlongItsPathAndNothingElsewhere() throws {
        let folio = try FolioUnderTest(captureBuffers: true)
        try folio.stroke(strokePoints)
        let centre = centreLine(strokePoints)
        let image = try folio.waitForImage("ink along the stroke") { image in
            centre.allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        try folio.settle()
        let settled = try folio.compositor.surfaceImage()
        let bounds = inkBounds(strokePoints)
        XCTAssertEqual(settled.count(where: { !Ink.isPaper($0) }) - settled.count(in: bounds, where: { !Ink.isPaper($0) }), 0,
                       "everything outside the stroke stays white (\(folio.save(settled, as: "outside")))")
        let length = hypot(400.0, 60.0)
        let ink = settled.count(where: Ink.isInk)
        XCTAssertGreaterThan(ink, Int(length * 3), "a 6 px wide line has about 6 px of ink per px of length")
        XCTAssertLessThan(ink, Int(length * 8), "a 6 px wide line has about 6 px of ink per px of length")
        XCTAssertEqual(image.width, 640)

        // What the damage built equals the last buffer: the client declared every pixel it changed.
        let last = try XCTUnwrap(folio.compositor.observation.commits.last { $0.pixels != nil }?.pixels)
        XCTAssertTrue(last == settled, "the damaged regions add up to the buffer's content")
    }

    /// Predicted ink is off: it reaches past the stroke's end, as far as the pen was heading.
    func testStrokeFramesDamageOnlyTheStroke() throws {
        let folio = try FolioUnderTest(settings: "[ink]\nprediction = false\n")
        try folio.settle()
        let start = folio.compositor.lastCommitIndex
        try folio.stroke(strokePoints)
        try folio.settle()
        let commits = folio.compositor.observation.commits.dropFirst(start + 1)
        XCTAssertGreaterThanOrEqual(commits.count, strokePoints.count / 2, "the stroke was drawn as it went")
        let allowed = inkBounds(strokePoints)
        for commit in commits {
            for rect in commit.damage {
                XCTAssertTrue(allowed.contains(rect), "commit \(commit.index) damages \(rect), outside the stroke's \(allowed)")
            }
            XCTAssertLessThan(commit.damage.reduce(0) { $0 + $1.area }, 640 * 480 / 4, "commit \(commit.index) redraws too much")
        }
    }

    func testTwoTapsFarApartInOneFrameDamageTwoSmallRectangles() throws {
        let folio = try FolioUnderTest()
        try folio.settle()
        let start = folio.compositor.lastCommitIndex
        let a = Point(x: 40, y: 40), b = Point(x: 600, y: 440)
        // Two fingers tap near opposite corners, one after the other, within one wl_touch.frame.
        try folio.compositor.sendTouch([.down(id: 1, x: a.x, y: a.y), .up(id: 1), .down(id: 2, x: b.x, y: b.y), .up(id: 2), .frame])
        try folio.waitForImage("a dot at each corner") { image in
            Ink.isInk(image.pixel(x: Int(a.x), y: Int(a.y))) && Ink.isInk(image.pixel(x: Int(b.x), y: Int(b.y)))
        }
        try folio.settle()
        let commits = folio.compositor.observation.commits.dropFirst(start + 1).filter { !$0.damage.isEmpty }
        XCTAssertEqual(commits.count, 1, "both taps are drawn in one frame")
        let commit = try XCTUnwrap(commits.first)
        let aroundA = inkBounds([a]), aroundB = inkBounds([b])
        for rect in commit.damage {
            XCTAssertTrue(aroundA.contains(rect) || aroundB.contains(rect), "\(rect) lies by neither dot: \(commit.damage)")
        }
        XCTAssertTrue(commit.damage.contains { aroundA.contains($0) }, "the first dot is damaged: \(commit.damage)")
        XCTAssertTrue(commit.damage.contains { aroundB.contains($0) }, "the second dot is damaged: \(commit.damage)")
        XCTAssertLessThanOrEqual(commit.damage.reduce(0) { $0 + $1.area }, aroundA.area + aroundB.area,
                                 "two small rectangles, not the box spanning both: \(commit.damage)")
    }

    func testBuffersAreReusedOverManyFrames() throws {
        let folio = try FolioUnderTest()
        try folio.stroke(line(from: Point(x: 40, y: 60), to: Point(x: 600, y: 420), count: 120))
        try folio.settle()
        let observation = folio.compositor.observation
        XCTAssertGreaterThanOrEqual(observation.commits.count, 100)
        XCTAssertLessThanOrEqual(observation.buffersSeen, 3, "a small fixed set of wl_buffers")
        XCTAssertEqual(observation.heldBufferReattached, 0, "never draws into a buffer the compositor holds")
        XCTAssertTrue(observation.protocolErrors.isEmpty, "\(observation.protocolErrors)")
    }

    func testOneFrameInFlight() throws {
        let folio = try FolioUnderTest(pacing: .manual)
        try folio.compositor.sendFrameDone()
        try folio.settle()
        let start = folio.compositor.lastCommitIndex
        let points = line(from: Point(x: 100, y: 100), to: Point(x: 300, y: 300), count: 12)
        try folio.compositor.sendTouch([.down(id: 1, x: points[0].x, y: points[0].y), .frame])
        for p in points.dropFirst() { try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame]) }
        try folio.settle()
        let during = folio.compositor.observation.commits.dropFirst(start + 1).filter(\.attached)
        XCTAssertLessThanOrEqual(during.count, 1, "without frame callbacks answered, at most one frame is committed")
        let before = folio.compositor.lastCommitIndex
        try folio.compositor.sendFrameDone()
        _ = try folio.compositor.waitForCommit(after: before)
        let last = try XCTUnwrap(points.last)
        try folio.waitForImage("the pending ink, drawn once the frame callback came") { image in
            Ink.isInk(image.pixel(x: Int(last.x) - 2, y: Int(last.y) - 2))
        }
        try folio.compositor.sendTouch([.up(id: 1), .frame])
        try folio.compositor.sendFrameDone()
    }

    func testTouchCapabilityAddedLateAndRemoved() throws {
        let folio = try FolioUnderTest(capabilities: [.pointer])
        XCTAssertEqual(folio.compositor.observation.touchObjects, 0)
        try folio.compositor.setCapabilities([.pointer, .touch])
        _ = try folio.compositor.wait(for: "a wl_touch once the seat has touch") { $0.touchObjects == 1 ? true : nil }
        try folio.stroke(strokePoints)
        try folio.waitForImage("ink from the late touch device") { image in
            self.centreLine(self.strokePoints).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        try folio.compositor.setCapabilities([.pointer])
        _ = try folio.compositor.wait(for: "the wl_touch released") { $0.touchObjects == 0 ? true : nil }
        try folio.compositor.setCapabilities([.pointer, .touch])
        _ = try folio.compositor.wait(for: "a wl_touch again") { $0.touchObjects == 1 ? true : nil }
        let second = line(from: Point(x: 100, y: 400), to: Point(x: 500, y: 400), count: 30)
        try folio.stroke(second)
        try folio.waitForImage("ink from the touch device bound again") { image in
            self.centreLine(second).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        XCTAssertTrue(folio.client.isRunning, folio.client.standardError)
    }

    func testCancelMidStrokeKeepsTheStroke() throws {
        let folio = try FolioUnderTest()
        let points = strokePoints
        try folio.compositor.sendTouch([.down(id: 1, x: points[0].x, y: points[0].y), .frame])
        for p in points.dropFirst() {
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame])
            _ = try folio.compositor.waitForCommit(after: last)
        }
        try folio.compositor.sendTouch([.cancel])
        try folio.settle()
        let image = try folio.compositor.surfaceImage()
        XCTAssertTrue(centreLine(points).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) },
                      "the cancelled stroke is kept (\(folio.save(image, as: "cancel")))")
        // The same id draws a new stroke after the cancel.
        let next = line(from: Point(x: 100, y: 400), to: Point(x: 500, y: 400), count: 30)
        try folio.stroke(next)
        try folio.waitForImage("a stroke after the cancel") { image in
            self.centreLine(next).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
    }

    func testTwoFingersAtOnceLeaveNoInk() throws {
        let folio = try FolioUnderTest()
        try folio.compositor.sendTouch([.down(id: 1, x: 200, y: 240), .down(id: 2, x: 440, y: 240), .frame])
        for step in 1...15 {
            let d = Double(step) * 4
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTouch([.motion(id: 1, x: 200 + d, y: 240), .motion(id: 2, x: 440 - d, y: 240), .frame])
            _ = try? folio.compositor.waitForCommit(after: last, timeout: .seconds(2))
        }
        try folio.compositor.sendTouch([.up(id: 1), .up(id: 2), .frame])
        let image = try folio.waitForImage("a white canvas after the pinch") { $0.count(where: Ink.isPaper) == $0.width * $0.height }
        XCTAssertEqual(image.count(where: Ink.isInk), 0)
        try drawsAfterwards(folio)
    }

    /// Once every finger has lifted and the book has opened again (input during the unfold
    /// animation does not draw), one finger draws again: the fingers were seen, not dropped.
    func drawsAfterwards(_ folio: FolioUnderTest) throws {
        try folio.settle()
        let next = line(from: Point(x: 100, y: 420), to: Point(x: 500, y: 420), count: 30)
        try folio.stroke(next)
        try folio.waitForImage("a one-finger stroke after the pinch") { image in
            self.centreLine(next).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        let image = try folio.compositor.surfaceImage()
        XCTAssertEqual(image.count(in: PixelRect(x: 0, y: 0, width: 640, height: 400), where: Ink.isInk), 0,
                       "the pinch left no ink (\(folio.save(image, as: "pinch")))")
    }

    func testPinchWhoseFingersLandInSeparateFramesLeavesNoInk() throws {
        let folio = try FolioUnderTest()
        // Mutter sends a frame per finger: the first finger has begun a stroke when the second lands.
        try folio.compositor.sendTouch([.down(id: 1, x: 200, y: 240), .frame])
        try folio.compositor.sendTouch([.motion(id: 1, x: 204, y: 241), .frame])
        try folio.compositor.sendTouch([.down(id: 2, x: 440, y: 240), .frame])
        for step in 1...10 {
            let d = Double(step) * 5
            try folio.compositor.sendTouch([.motion(id: 1, x: 204 + d, y: 241), .frame])
            try folio.compositor.sendTouch([.motion(id: 2, x: 440 - d, y: 240), .frame])
        }
        try folio.compositor.sendTouch([.up(id: 1), .frame])
        try folio.compositor.sendTouch([.up(id: 2), .frame])
        let image = try folio.waitForImage("a white canvas after the split pinch") { $0.count(where: Ink.isPaper) == $0.width * $0.height }
        XCTAssertEqual(image.count(where: Ink.isInk), 0)
        try drawsAfterwards(folio)
    }

    func testTouchEventsTakeEffectAtFrame() throws {
        let folio = try FolioUnderTest()
        try folio.settle()
        let points = line(from: Point(x: 100, y: 300), to: Point(x: 400, y: 300), count: 20)
        var events: [TouchEvent] = [.down(id: 1, x: points[0].x, y: points[0].y)]
        events += points.dropFirst().map { .motion(id: 1, x: $0.x, y: $0.y) }
        try folio.compositor.sendTouch(events)
        try folio.settle()
        XCTAssertEqual(try folio.compositor.surfaceImage().count(where: Ink.isInk), 0, "nothing is drawn before wl_touch.frame")
        try folio.compositor.sendTouch([.frame, .up(id: 1), .frame])
        try folio.waitForImage("the whole stroke, drawn at its frame") { image in
            self.centreLine(points).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
    }

    func testStrokeSplitOverFramesDrawsTheSameAsInOneFrame() throws {
        let points = line(from: Point(x: 80, y: 120), to: Point(x: 560, y: 380), count: 25)
        let perFrame = try FolioUnderTest()
        try perFrame.stroke(points)
        try perFrame.settle()
        let oneFrame = try FolioUnderTest()
        var events: [TouchEvent] = [.down(id: 1, x: points[0].x, y: points[0].y)]
        events += points.dropFirst().map { .motion(id: 1, x: $0.x, y: $0.y) }
        try oneFrame.compositor.sendTouch(events + [.frame, .up(id: 1), .frame])
        try oneFrame.waitForImage("the stroke sent in one frame") { $0.count(where: Ink.isInk) > 0 }
        try oneFrame.settle()
        let a = try perFrame.compositor.surfaceImage(), b = try oneFrame.compositor.surfaceImage()
        XCTAssertTrue(a == b, "same ink either way (\(perFrame.save(a, as: "perframe")), \(oneFrame.save(b, as: "oneframe")))")
    }

    func testLeftPointerButtonDraws() throws {
        let folio = try FolioUnderTest(capabilities: [.pointer], waitForTouch: false)
        _ = try folio.compositor.wait(for: "a wl_pointer") { $0.pointerObjects > 0 ? true : nil }
        let points = line(from: Point(x: 100, y: 100), to: Point(x: 500, y: 150), count: 30)
        try folio.compositor.sendPointer([.motion(x: points[0].x, y: points[0].y), .frame,
                                          .button(code: PointerEvent.leftButton, pressed: true), .frame])
        for p in points.dropFirst() { try folio.compositor.sendPointer([.motion(x: p.x, y: p.y), .frame]) }
        try folio.compositor.sendPointer([.button(code: PointerEvent.leftButton, pressed: false), .frame])
        try folio.waitForImage("ink from the mouse") { image in
            self.centreLine(points).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
    }

    func testHiDPIOutputGetsScaledBuffers() throws {
        let folio = try FolioUnderTest(width: 400, height: 300, outputScale: 2)
        let points = line(from: Point(x: 60, y: 100), to: Point(x: 340, y: 180), count: 30)
        try folio.stroke(points)
        let image = try folio.waitForImage("ink at twice the scale") { image in
            image.width == 800 && self.centreLine(points, scale: 2).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        XCTAssertEqual(image.height, 600)
        XCTAssertEqual(folio.compositor.observation.commits.last?.bufferScale, 2)
        // The surface enters the output only once mapped; the first frame already takes the
        // output's scale rather than being drawn at 1 and again.
        let first = try XCTUnwrap(folio.compositor.observation.commits.first { $0.attached && $0.buffer != nil })
        XCTAssertEqual([first.width, first.height, first.bufferScale], [800, 600, 2])
    }

    func testKeyboardUndoRedoAndQuit() throws {
        let folio = try FolioUnderTest(capabilities: [.touch, .keyboard])
        _ = try folio.compositor.wait(for: "a wl_keyboard") { $0.keyboardObjects > 0 ? true : nil }
        let centre = centreLine(strokePoints)
        try folio.stroke(strokePoints)
        try folio.waitForImage("the stroke") { image in centre.allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) } }
        try folio.compositor.press(KeyCode.z, modifiers: .control)
        try folio.waitForImage("a white canvas after Ctrl+Z") { $0.count(where: Ink.isPaper) == $0.width * $0.height }
        try folio.compositor.press(KeyCode.z, modifiers: [.control, .shift])
        try folio.waitForImage("the stroke again after Ctrl+Shift+Z") { image in
            centre.allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        try folio.compositor.press(KeyCode.q, modifiers: .control)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
    }

    func testSixtyHertzDisplayCoalescesTouchFrames() throws {
        let folio = try FolioUnderTest(pacing: .interval(milliseconds: 16))
        try folio.settle()
        let start = folio.compositor.lastCommitIndex
        let points = line(from: Point(x: 60, y: 240), to: Point(x: 580, y: 240), count: 60)
        // Sixty touch frames at once, far faster than the display: frames must not queue up.
        var events: [TouchEvent] = [.down(id: 1, x: points[0].x, y: points[0].y), .frame]
        for p in points.dropFirst() { events += [.motion(id: 1, x: p.x, y: p.y), .frame] }
        try folio.compositor.sendTouch(events + [.up(id: 1), .frame])
        try folio.waitForImage("the whole stroke") { image in
            self.centreLine(points).allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        try folio.settle()
        let drawn = folio.compositor.observation.commits.dropFirst(start + 1).filter(\.attached).count
        XCTAssertGreaterThan(drawn, 0)
        XCTAssertLessThan(drawn, points.count / 2, "touch frames are coalesced into display frames, not queued")
    }

    func testResizeKeepsTheInkAndFillsTheNewAreaWhite() throws {
        let folio = try FolioUnderTest()
        try folio.stroke(strokePoints)
        let centre = centreLine(strokePoints)
        try folio.waitForImage("the stroke") { image in centre.allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) } }
        try folio.compositor.configure(width: 900, height: 700)
        let resized = try folio.waitForImage("a 900x700 frame with the stroke") { image in
            image.width == 900 && image.height == 700 && centre.allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        XCTAssertEqual(resized.count(in: PixelRect(x: 640, y: 0, width: 260, height: 700), where: { !Ink.isPaper($0) }), 0,
                       "the new area is white canvas")
        XCTAssertEqual(folio.compositor.observation.acknowledgedConfigures.count, 2, "both configures acknowledged")
    }

    func testF11AsksForFullscreen() throws {
        let folio = try FolioUnderTest(capabilities: [.touch, .keyboard])
        _ = try folio.compositor.wait(for: "a wl_keyboard") { $0.keyboardObjects > 0 ? true : nil }
        try folio.compositor.press(KeyCode.f11)
        _ = try folio.compositor.wait(for: "xdg_toplevel.set_fullscreen") { $0.toplevel?.fullscreenRequested == true ? true : nil }
    }

    func testCloseRequestExitsCleanly() throws {
        let folio = try FolioUnderTest()
        try folio.compositor.close()
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
    }

    func testNoCompositorExitsWithAMessageNamingWaylandDisplay() throws {
        let runtime = try FolioUnderTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["WAYLAND_DISPLAY"] = "wayland-nobody-here"
        environment["WAYLAND_SOCKET"] = nil
        environment["XDG_DATA_HOME"] = runtime
        let process = try ClientProcess.start(try ClientProcess.folioExecutable(), environment: environment)
        XCTAssertEqual(try process.waitForExit(), 1)
        XCTAssertTrue(process.standardError.contains("WAYLAND_DISPLAY"), "stderr: \(process.standardError)")
    }

    func testCompositorVanishingMidStrokeExitsWithOneLine() throws {
        let folio = try FolioUnderTest()
        let points = strokePoints
        try folio.compositor.sendTouch([.down(id: 1, x: points[0].x, y: points[0].y), .frame])
        for p in points.prefix(15).dropFirst() {
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame])
            _ = try folio.compositor.waitForCommit(after: last)
        }
        folio.compositor.stop()
        let status = try folio.client.waitForExit()
        let stderr = folio.client.standardError
        XCTAssertEqual(status, 0, "exit status (nil: killed by signal \(folio.client.terminatingSignal ?? 0)); stderr: \(stderr)")
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, "one line says what happened: \(stderr)")
        XCTAssertFalse(stderr.contains("Fatal error"), stderr)
    }

    /// A finished stroke is on disk within a second, whatever happens next: the app is killed
    /// with SIGKILL (no chance to save on the way out) one second after the finger lifts.
    func testAFinishedStrokeSurvivesKillNineOneSecondLater() throws {
        let book = try FolioUnderTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: book) }
        let folio = try FolioUnderTest(arguments: ["--book", book])
        for round in 1...3 {
            try folio.stroke(line(from: Point(x: 60, y: 60 + Double(round) * 80), to: Point(x: 400, y: 90 + Double(round) * 80), count: 12))
            try folio.compositor.ping()
            Thread.sleep(forTimeInterval: 1)
            if round == 3 { XCTAssertEqual(kill(folio.client.processIdentifier, SIGKILL), 0) }
        }
        XCTAssertNil(try folio.client.waitForExit(), "killed")
        XCTAssertEqual(try bookInfo(book), #"{"sheets":[{"strokes":3,"paper":"plain"}]}"#)
    }
}
