import Foundation
import XCTest

/// `folio controls` and traces that tap its layout through `folio replay`, as a test author would.
extension CLITests {
    private func controls(_ size: String, scale: String? = nil) throws -> (handle: [Double], controls: [String: [String: Any]]) {
        let result = try run(["controls", "--size", size] + (scale.map { ["--scale", $0] } ?? []))
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let handle = object?["handle"] as? [Double] ?? []
        var byName: [String: [String: Any]] = [:]
        for entry in object?["controls"] as? [[String: Any]] ?? [] {
            if let name = entry["name"] as? String { byName[name] = entry }
        }
        return (handle, byName)
    }

    /// A trace line pair tapping the middle of `rect` at `t`.
    private func tap(_ rect: [Double], at t: Int) -> String {
        let x = rect[0] + rect[2] / 2, y = rect[1] + rect[3] / 2
        return """
        {"t": \(t), "kind": "touch.down", "id": 1, "x": \(x), "y": \(y)}
        {"t": \(t), "kind": "touch.frame"}
        {"t": \(t + 50), "kind": "touch.up", "id": 1}
        {"t": \(t + 50), "kind": "touch.frame"}
        """
    }

    func testControlsPrintsEveryControlWithItsColourOrWidth() throws {
        let layout = try controls("1280x800")
        XCTAssertEqual(layout.handle.count, 4)
        XCTAssertGreaterThanOrEqual(layout.handle[2], 48)
        XCTAssertEqual(Set(layout.controls.keys), ["undo", "redo", "color.1", "color.2", "color.3", "color.4", "color.5", "color.6",
                                                  "width.1", "width.2", "width.3", "eraser", "lasso", "sheet.new", "sheet.previous", "sheet.next",
                                                  "sheet.delete", "paper", "play", "export", "fullscreen", "books"])
        XCTAssertEqual(layout.controls["color.1"]?["color"] as? String, "#0000FF")
        XCTAssertEqual(layout.controls["width.2"]?["width"] as? Double, 6)
        for (name, entry) in layout.controls {
            let rect = entry["rect"] as? [Double] ?? []
            XCTAssertTrue(rect.count == 4 && rect[2] >= 48 && rect[3] >= 48, name)
        }
        let fractional = try controls("1001x701", scale: "1.5")
        for entry in fractional.controls.values {
            for v in entry["rect"] as? [Double] ?? [] { XCTAssertEqual(v * 1.5, (v * 1.5).rounded(), accuracy: 1e-9) }
        }
        for bad in [["--size", "0x10"], ["--size", "1280x800", "--scale", "0.5"], ["--size", "1280x800", "--scale", "nan"]] {
            let result = try run(["controls"] + bad)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }

    func testATraceTappingTheLayoutChoosesInkAndExportsIntoThePicturesFolder() throws {
        let layout = try controls("1280x800")
        func rect(_ name: String) -> [Double] { layout.controls[name]?["rect"] as? [Double] ?? [0, 0, 0, 0] }
        let trace = [
            tap(layout.handle, at: 0), tap(rect("color.3"), at: 200), tap(rect("width.1"), at: 400),
            tap(rect("export"), at: 600),
        ].joined(separator: "\n")
        let tracePath = try write("taps.jsonl", trace)
        let pictures = folder.appendingPathComponent("Pictures").path
        let result = try run(["replay", tracePath, "--size", "1280x800"], environment: ["XDG_PICTURES_DIR": pictures])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let toolbar = summary?["toolbar"] as? [String: Any]
        XCTAssertEqual(toolbar?["color"] as? String, "#D81B1B")
        XCTAssertEqual(toolbar?["width"] as? Double, 3)
        XCTAssertEqual(summary?["strokes"] as? Int, 0, "taps on controls never draw")
        let events = (summary?["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
        XCTAssertTrue(events.contains("export.written"), "\(events)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: pictures + "/Folio sheet 1.png"), result.stderr)
        // A second export never replaces the first picture.
        XCTAssertEqual(try run(["replay", tracePath, "--size", "1280x800"], environment: ["XDG_PICTURES_DIR": pictures]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pictures + "/Folio sheet 1 (2).png"))
    }
}

/// `folio replay --config FILE`: settings in, the toolbar's choices back out.
extension CLITests {
    func testReplayReadsSettingsAndWritesTheToolbarsChoicesBack() throws {
        let config = folder.appendingPathComponent("config.toml").path
        try Data("""
        [ink]
        color = "#654321"
        width = 10.0
        [palette]
        colors = ["#0000FF", "#654321", "#D81B1B", "#138A36", "#E67E00", "#7B2FBE"]
        widths = [2.0, 10.0, 20.0]
        [gestures]
        pinch = false
        """.utf8).write(to: URL(fileURLWithPath: config))
        // One stroke in the configured ink, a pinch that does nothing, then a tap on colour 3.
        let layout = try run(["controls", "--size", "1280x800"])
        let object = try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any]
        let handle = object?["handle"] as? [Double] ?? []
        let red = ((object?["controls"] as? [[String: Any]])?.first { $0["name"] as? String == "color.3" }?["rect"] as? [Double]) ?? []
        let trace = """
        {"t": 0, "kind": "touch.down", "id": 1, "x": 200, "y": 200}
        {"t": 0, "kind": "touch.frame"}
        {"t": 16, "kind": "touch.motion", "id": 1, "x": 260, "y": 230}
        {"t": 16, "kind": "touch.frame"}
        {"t": 500, "kind": "touch.down", "id": 2, "x": 400, "y": 300}
        {"t": 500, "kind": "touch.frame"}
        {"t": 520, "kind": "touch.motion", "id": 2, "x": 300, "y": 300}
        {"t": 520, "kind": "touch.frame"}
        {"t": 600, "kind": "touch.up", "id": 1}
        {"t": 600, "kind": "touch.up", "id": 2}
        {"t": 600, "kind": "touch.frame"}
        {"t": 700, "kind": "touch.down", "id": 3, "x": \(handle[0] + 40), "y": \(handle[1] + 24)}
        {"t": 700, "kind": "touch.frame"}
        {"t": 750, "kind": "touch.up", "id": 3}
        {"t": 750, "kind": "touch.frame"}
        {"t": 900, "kind": "touch.down", "id": 4, "x": \(red[0] + 24), "y": \(red[1] + 24)}
        {"t": 900, "kind": "touch.frame"}
        {"t": 950, "kind": "touch.up", "id": 4}
        {"t": 950, "kind": "touch.frame"}
        """
        let tracePath = try write("t.jsonl", trace)
        let result = try run(["replay", tracePath, "--size", "1280x800", "--config", config])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let events = (summary?["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
        XCTAssertFalse(events.contains("fold.began"), "pinch = false: \(events)")
        XCTAssertEqual((summary?["toolbar"] as? [String: Any])?["color"] as? String, "#D81B1B")
        let written = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(written.contains("color = \"#D81B1B\""), written)
        XCTAssertTrue(written.contains("width = 10.0"), written)
        XCTAssertTrue(written.contains("pinch = false"), written)
        XCTAssertTrue(written.contains("\"#654321\""), "the palette is kept: \(written)")

        // A bad value: one line with its line number, the default used, the replay runs; the
        // file is left as its owner wrote it.
        let bad = "[fold]\nperspective = -3\n"
        try Data(bad.utf8).write(to: URL(fileURLWithPath: config))
        let second = try run(["replay", tracePath, "--size", "1280x800", "--config", config])
        XCTAssertEqual(second.status, 0, second.stderr)
        let lines = second.stderr.split(separator: "\n")
        XCTAssertEqual(lines.first, "folio: \(config):2: fold.perspective must be a number from 500 to 20000; using 2000")
        XCTAssertEqual(lines.count, 2, second.stderr)
        XCTAssertEqual(try String(contentsOfFile: config, encoding: .utf8), bad)
    }

    /// `gestures.tap_undo = false` in the file `--config` names: a two-finger tap is a pinch again.
    func testReplayHonoursTapUndoFromTheConfig() throws {
        let trace = try write("tap.jsonl", """
        {"t": 0, "kind": "touch.down", "id": 1, "x": 200, "y": 200}
        {"t": 0, "kind": "touch.frame"}
        {"t": 16, "kind": "touch.motion", "id": 1, "x": 260, "y": 230}
        {"t": 16, "kind": "touch.frame"}
        {"t": 32, "kind": "touch.up", "id": 1}
        {"t": 32, "kind": "touch.frame"}
        {"t": 500, "kind": "touch.down", "id": 2, "x": 400, "y": 300}
        {"t": 500, "kind": "touch.down", "id": 3, "x": 500, "y": 300}
        {"t": 500, "kind": "touch.frame"}
        {"t": 600, "kind": "touch.up", "id": 2}
        {"t": 600, "kind": "touch.up", "id": 3}
        {"t": 600, "kind": "touch.frame"}
        """)
        func events(_ config: String) throws -> [String] {
            let path = folder.appendingPathComponent("tap.toml").path
            try Data(config.utf8).write(to: URL(fileURLWithPath: path))
            let result = try run(["replay", trace, "--size", "800x600", "--config", path])
            XCTAssertEqual(result.status, 0, result.stderr)
            let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (summary?["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
        }
        let on = try events("[gestures]\ntap_undo = true\n")
        XCTAssertTrue(on.contains("tap.undo") && !on.contains("fold.ended"), "\(on)")
        let off = try events("[gestures]\ntap_undo = false\n")
        XCTAssertTrue(off.contains("fold.ended") && !off.contains("tap.undo"), "\(off)")
    }

    /// `ink.prediction = false` in the file `--config` names: a frame mid-stroke shows no ink past
    /// the newest sample; the screen after the stroke is the same either way.
    func testReplayHonoursInkPredictionFromTheConfig() throws {
        let trace = try write("line.jsonl", horizontalStroke(samples: 30, every: 8, liftAt: 260))
        /// final.png, or with `at`, the last frame the display presented by then.
        func finalPNG(_ config: String, at: String?) throws -> Data {
            let path = folder.appendingPathComponent("predict.toml").path
            try Data(config.utf8).write(to: URL(fileURLWithPath: path))
            let out = folder.appendingPathComponent("out-\(UUID().uuidString)").path
            let result = try run(["replay", trace, "--size", "800x600", "--config", path, "--out", out]
                                 + (at.map { ["--at", $0, "--frames"] } ?? []))
            XCTAssertEqual(result.status, 0, result.stderr)
            guard at != nil else { return try Data(contentsOf: URL(fileURLWithPath: out + "/final.png")) }
            let last = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("frame-") }.max())
            return try Data(contentsOf: URL(fileURLWithPath: out + "/" + last))
        }
        XCTAssertNotEqual(try finalPNG("[ink]\nprediction = true\n", at: "200"), try finalPNG("[ink]\nprediction = false\n", at: "200"))
        XCTAssertEqual(try finalPNG("[ink]\nprediction = true\n", at: nil), try finalPNG("[ink]\nprediction = false\n", at: nil))
    }

    /// `ink.late_commits = false` in the file `--config` names: the stroke's frames are drawn at
    /// each callback, so what they show is older when presented (frames.jsonl); the screen after
    /// the stroke is the same either way.
    func testReplayHonoursLateCommitsFromTheConfig() throws {
        let trace = try write("late.jsonl", horizontalStroke(samples: 60, every: 4, liftAt: 244))
        /// The median age (ms) of the newest input of the stroke's frames when presented, and final.png.
        func replay(lateCommits: Bool) throws -> (age: Double, final: Data) {
            let path = folder.appendingPathComponent("late.toml").path
            try Data("[ink]\nlate_commits = \(lateCommits)\n".utf8).write(to: URL(fileURLWithPath: path))
            let out = folder.appendingPathComponent("out-\(UUID().uuidString)").path
            let result = try run(["replay", trace, "--size", "800x600", "--config", path, "--out", out])
            XCTAssertEqual(result.status, 0, result.stderr)
            let frames = try String(contentsOfFile: out + "/frames.jsonl", encoding: .utf8).split(separator: "\n")
            let ages = try frames.compactMap { line -> Double? in
                let frame = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                guard let input = frame["input"] as? Double, let presented = frame["presented"] as? Double, input < 244 else { return nil }
                return presented - input
            }.sorted()
            XCTAssertGreaterThanOrEqual(ages.count, 8, "\(frames)")
            return (ages.isEmpty ? 0 : ages[ages.count / 2], try Data(contentsOf: URL(fileURLWithPath: out + "/final.png")))
        }
        let on = try replay(lateCommits: true), off = try replay(lateCommits: false)
        XCTAssertLessThan(on.age, 16, "late: the newest input is taken just before the deadline")
        XCTAssertGreaterThan(off.age, 16, "at each callback: a refresh and more before it is seen")
        XCTAssertEqual(on.final, off.final)
    }

    /// A finger drawing right along y = 300 from x = 200: a touch and `samples` moves, one every
    /// `every` ms and `every` px, lifted at `liftAt` ms.
    private func horizontalStroke(samples: Int, every: Int, liftAt: Int) -> String {
        var lines: [String] = []
        for i in 0...samples {
            let kind = i == 0 ? "touch.down" : "touch.motion"
            lines.append("{\"t\": \(i * every), \"kind\": \"\(kind)\", \"id\": 1, \"x\": \(200 + i * every), \"y\": 300}")
            lines.append("{\"t\": \(i * every), \"kind\": \"touch.frame\"}")
        }
        lines += ["{\"t\": \(liftAt), \"kind\": \"touch.up\", \"id\": 1}", "{\"t\": \(liftAt), \"kind\": \"touch.frame\"}"]
        return lines.joined(separator: "\n")
    }
}
