import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioSketchbook
import XCTest
@testable import FolioReplay

/// Predicted ink shows only in live frames: the screen after a stroke, the book and the exports
/// are the same with it on and off, and no predicted pixel outlives the stroke.
final class PredictedInkTests: XCTestCase {
    enum Device: CaseIterable { case finger, mouse, pen }

    /// A looping, handwriting-like path of `count` samples `step` ms apart from `t0`.
    private func loops(count: Int, step: Double, t0: Double) -> [(t: Double, p: Point)] {
        (0..<count).map { i in
            let s = Double(i) * step
            return (t0 + s, Point(x: 200 + 0.5 * s + 40 * cos(s / 40), y: 250 + 60 * sin(s / 30)))
        }
    }

    /// One stroke of `device` along `samples`, lifted at the end unless `lift` is false.
    private func trace(_ device: Device, _ samples: [(t: Double, p: Point)], lift: Bool = true) -> String {
        func line(_ t: Double, _ body: String) -> String { "{\"t\": \(t), \(body)}" }
        var lines: [String] = []
        for (index, sample) in samples.enumerated() {
            let (t, p) = sample
            switch device {
            case .finger:
                lines.append(line(t, index == 0 ? "\"kind\": \"touch.down\", \"id\": 1, \"x\": \(p.x), \"y\": \(p.y)"
                                               : "\"kind\": \"touch.motion\", \"id\": 1, \"x\": \(p.x), \"y\": \(p.y)"))
                lines.append(line(t, "\"kind\": \"touch.frame\""))
            case .mouse:
                lines.append(line(t, "\"kind\": \"pointer.motion\", \"x\": \(p.x), \"y\": \(p.y)"))
                if index == 0 { lines.append(line(t, "\"kind\": \"pointer.button\", \"button\": \"left\", \"state\": \"pressed\"")) }
            case .pen:
                if index == 0 { lines.append(line(t, "\"kind\": \"tablet.proximity_in\", \"tool\": \"pen\"")) }
                let pressure = 0.3 + 0.4 * Double(index % 20) / 20
                lines.append(line(t, "\"kind\": \"tablet.motion\", \"x\": \(p.x), \"y\": \(p.y), \"pressure\": \(pressure)"))
                if index == 0 { lines.append(line(t, "\"kind\": \"tablet.down\"")) }
                lines.append(line(t, "\"kind\": \"tablet.frame\""))
            }
        }
        if lift, let end = samples.last?.t {
            switch device {
            case .finger:
                lines += [line(end + 4, "\"kind\": \"touch.up\", \"id\": 1"), line(end + 4, "\"kind\": \"touch.frame\"")]
            case .mouse:
                lines.append(line(end + 4, "\"kind\": \"pointer.button\", \"button\": \"left\", \"state\": \"released\""))
            case .pen:
                lines += [line(end + 4, "\"kind\": \"tablet.up\""), line(end + 4, "\"kind\": \"tablet.frame\""),
                          line(end + 8, "\"kind\": \"tablet.proximity_out\""), line(end + 8, "\"kind\": \"tablet.frame\"")]
            }
        }
        return lines.joined(separator: "\n")
    }

    private func replay(_ text: String, prediction: Bool, scale: BufferScale = 1, stopTime: Double? = nil,
                        lateCommits: Bool = true) throws -> Replay {
        let replay = Replay(trace: try Trace(parsing: text),
                            options: .init(width: 640, height: 480, scale: scale, stopTime: stopTime, lateCommits: lateCommits))
        replay.session.predictsInk = prediction
        try replay.run()
        return replay
    }

    private func differingPixels(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.width == b.width, a.height == b.height else { return .max }
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 }
        }
        return count
    }

    func testTheScreenTheBookAndTheExportsAreTheSameWithPredictionOnAndOff() throws {
        for device in Device.allCases {
            for (step, scale) in [(4.0, BufferScale(1)), (8.0, BufferScale(2))] {
                let text = trace(device, loops(count: 60, step: step, t0: 10))
                let on = try replay(text, prediction: true, scale: scale)
                let off = try replay(text, prediction: false, scale: scale)
                let what = "\(device), a sample every \(step) ms, scale \(scale.factor)"
                XCTAssertEqual(on.session.book.sheet.strokes.count, 1, what)
                XCTAssertEqual(on.session.book, off.session.book, what)
                XCTAssertEqual(differingPixels(on.screen, off.screen), 0, what)
                let sheet = on.session.book.sheet
                XCTAssertEqual(SVGExport.document(for: sheet, size: SVGExport.extent(of: sheet)),
                               SVGExport.document(for: off.session.book.sheet, size: SVGExport.extent(of: off.session.book.sheet)), what)
                let made = Date()
                XCTAssertEqual(try PDFExport.document(for: on.session.book, size: PDFExport.extent(of: on.session.book), date: made),
                               try PDFExport.document(for: off.session.book, size: PDFExport.extent(of: off.session.book), date: made), what)
                // No predicted pixel remains: the screen is the sheet drawn from scratch.
                let scratch = CanvasRenderer(width: 640, height: 480, scale: scale.factor)
                scratch.rebuild(strokes: sheet.strokes)
                XCTAssertEqual(differingPixels(on.session.frame, scratch.frame), 0, what)
            }
        }
    }

    func testALiveFrameShowsInkPastTheNewestSampleOnlyWithPrediction() throws {
        for device in Device.allCases {
            // Straight right at 1 px/ms, a sample every 8 ms; the replay stops at the vblank that
            // shows the newest sample (242), the stroke still down. Frames drawn at once, so the
            // newest is drawn at 242 for the vblank at 266.7, a horizon of 24 ms.
            let samples = (0..<30).map { i in (t: 10 + Double(i) * 8, p: Point(x: 100 + Double(i) * 8, y: 240)) }
            let text = trace(device, samples, lift: false)
            let on = try replay(text, prediction: true, stopTime: 250, lateCommits: false)
            let off = try replay(text, prediction: false, stopTime: 250, lateCommits: false)
            XCTAssertTrue(on.session.isDrawing, "\(device)")
            guard let newest = samples.last?.p else { return }
            // Past the newest sample's ink (its round end reaches half the width, 3 px), ahead on its line.
            let ahead = Int(newest.x) + 8, y = Int(newest.y)
            XCTAssertNotEqual(on.session.frame.pixel(x: ahead, y: y), CanvasRenderer.paper, "\(device): predicted ink shows")
            XCTAssertEqual(off.session.frame.pixel(x: ahead, y: y), CanvasRenderer.paper, "\(device): no ink past the sample")
            // Behind the newest sample, the two frames agree.
            for x in stride(from: 110, to: Int(newest.x) - 8, by: 10) {
                XCTAssertEqual(on.session.frame.pixel(x: x, y: y), off.session.frame.pixel(x: x, y: y), "\(device) at x = \(x)")
            }
        }
    }

    func testPredictedInkGoesWhenThePenRestsWithoutNewSamples() throws {
        for device in Device.allCases {
            // Fast to the right, then the pen stays down and still: no more samples come.
            let samples = (0..<30).map { i in (t: 10 + Double(i) * 4, p: Point(x: 100 + Double(i) * 6, y: 240)) }
            let text = trace(device, samples, lift: false)
            let options = Replay.Options(width: 640, height: 480, stopTime: 400)
            let on = Replay(trace: try Trace(parsing: text), options: options)
            try on.run()
            let off = Replay(trace: try Trace(parsing: text), options: options)
            off.session.predictsInk = false
            try off.run()
            XCTAssertTrue(on.session.isDrawing, "\(device)")
            XCTAssertFalse(on.session.showsPredictedInk, "\(device)")
            XCTAssertEqual(differingPixels(on.screen, off.screen), 0, "\(device): the resting pen's ink ends where it is")
        }
    }

    func testWithoutFeedbackTheVblankIsReckonedFromFrameCallbacks() throws {
        // Callbacks 16.67 ms apart, the last at 100: a frame drawn at 105 is seen at 116.67, one
        // drawn at 120 at 133.33; the window is taken as half a refresh.
        let interval = 1000.0 / 60
        let soon = try XCTUnwrap(PresentationForecast.fromCallbacks(lastCallback: 100, interval: interval, now: 105))
        XCTAssertEqual(soon.time, 100 + interval, accuracy: 1e-9)
        XCTAssertEqual(soon.horizonCap, 1.5 * interval, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(PresentationForecast.fromCallbacks(lastCallback: 100, interval: interval, now: 120)).time,
                       100 + 2 * interval, accuracy: 1e-9)
        // A callback stamped with the vblank to come (the window's presentation feedback): that vblank.
        XCTAssertEqual(try XCTUnwrap(PresentationForecast.fromCallbacks(lastCallback: 100, interval: interval, now: 95)).time,
                       100, accuracy: 1e-9)
        XCTAssertNil(PresentationForecast.fromCallbacks(lastCallback: 100, interval: 0, now: 120))
    }

    func testTheSimulatedDisplayForecastsTheVblankACommitMakes() {
        let compositor = SimulatedCompositor()
        compositor.advance(to: 500)  // past 493, the deadline of the vblank at 500
        XCTAssertEqual(compositor.presentationForecast?.time ?? 0, 1000.0 * 31 / 60, accuracy: 1e-9)
        XCTAssertEqual(compositor.presentationForecast?.horizonCap ?? 0, 1000.0 / 60 + 7, accuracy: 1e-9)
        compositor.advance(to: 505)  // before 509.67, the deadline of the vblank at 516.67
        XCTAssertEqual(compositor.presentationForecast?.time ?? 0, 1000.0 * 31 / 60, accuracy: 1e-9)
    }

    func testAJumpFarAwayLeavesNoPredictedInk() throws {
        // A sample a million px away a microsecond after the last (as far as a trace may say),
        // then the finger goes on: however fast that step, nothing traps and nothing predicted stays.
        var samples = (0..<6).map { i in (t: 10 + Double(i) * 4, p: Point(x: 300 + Double(i) * 4, y: 240)) }
        samples.append((t: 30.001, p: Point(x: 1e6, y: -1e6)))
        samples.append((t: 38, p: Point(x: 340, y: 240)))
        let text = trace(.finger, samples)
        let on = try replay(text, prediction: true)
        let off = try replay(text, prediction: false)
        XCTAssertEqual(on.session.book, off.session.book)
        XCTAssertEqual(differingPixels(on.screen, off.screen), 0)
    }

    func testPredictedInkIsErasedWhenTheStrokeIsWithdrawn() throws {
        // A second finger withdraws a young stroke (a pinch begins): nothing of it may stay.
        let samples = (0..<4).map { i in (t: 10 + Double(i) * 8, p: Point(x: 300 + Double(i) * 8, y: 240)) }
        var text = trace(.finger, samples, lift: false)
        text += "\n{\"t\": 40, \"kind\": \"touch.down\", \"id\": 2, \"x\": 400, \"y\": 300}\n{\"t\": 40, \"kind\": \"touch.frame\"}"
        text += "\n{\"t\": 60, \"kind\": \"touch.up\", \"id\": 1}\n{\"t\": 60, \"kind\": \"touch.up\", \"id\": 2}\n{\"t\": 60, \"kind\": \"touch.frame\"}"
        let on = try replay(text, prediction: true)
        let off = try replay(text, prediction: false)
        XCTAssertEqual(on.session.book, off.session.book)
        XCTAssertEqual(differingPixels(on.screen, off.screen), 0)
    }
}
