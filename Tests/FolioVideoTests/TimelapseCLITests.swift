import CVideoProbe
import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// `folio timelapse` (docs/cli.md): the video decoded back with libavformat and libavcodec has
/// the frames, size and length asked for, and its last frame is the sheet `folio export` draws;
/// bad settings and unwritable outputs are one line, status 1, and leave no file behind.
final class TimelapseCLITests: XCTestCase {
    private var folder: URL!
    private var bookFolder: URL { folder.appendingPathComponent("book") }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-timelapse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func folio(_ arguments: [String]) throws -> Result {
        let process = Process()
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.executableURL = me.deletingLastPathComponent().appendingPathComponent("folio")
        process.arguments = arguments
        let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                      stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// Two sheets; the second (the one the book is open at) holds three thick timed strokes, the
    /// last of them a wide red sweep drawn a minute after the others.
    private func makeBook() throws -> [Stroke] {
        func stroke(_ points: [Point], color: UInt32, start: Double, step: UInt32) -> Stroke {
            Stroke(points: points, style: InkStyle(width: 18, color: color),
                   times: StrokeTimes(start: start, offsets: points.indices.map { UInt32($0) * step }))
        }
        let strokes = [
            stroke((0..<20).map { Point(x: 20 + Double($0) * 14, y: 40 + Double($0) * 4) }, color: 0x0000FF, start: 1_700_000_000, step: 16),
            stroke((0..<10).map { Point(x: 40, y: 60 + Double($0) * 16) }, color: 0x00A000, start: 1_700_000_002, step: 30),
            stroke((0..<30).map { Point(x: 10 + Double($0) * 10, y: 200 - Double($0) * 2) }, color: 0xE00000, start: 1_700_000_060, step: 8),
        ]
        var book = Sketchbook(sheets: [Sheet(strokes: [Stroke(points: [Point(x: 5, y: 5)])]), Sheet(strokes: strokes)], currentSheet: 1)
        book.goToSheet(1)
        let writer = try BookStore(directory: bookFolder).openForWriting()
        try writer.save(book)
        return strokes
    }

    private func probe(_ path: String, last: inout [UInt8]) throws -> folio_video_probe {
        var info = folio_video_probe()
        var error = [CChar](repeating: 0, count: 256)
        let status = last.withUnsafeMutableBufferPointer { folio_probe_video(path, &info, $0.baseAddress, $0.count, &error, error.count) }
        XCTAssertEqual(status, 0, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        return info
    }

    /// Peak signal-to-noise ratio (dB) of the decoded pixels (blue, green, red, pad) against `bitmap`'s colour channels.
    private func psnr(_ decoded: [UInt8], _ bitmap: Bitmap) -> Double {
        var squares = 0.0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let argb = bitmap.pixel(x: x, y: y), at = (y * bitmap.width + x) * 4
                for (channel, shift) in [(0, 0), (1, 8), (2, 16)] {
                    let d = Double(decoded[at + channel]) - Double((argb >> UInt32(shift)) & 0xFF)
                    squares += d * d
                }
            }
        }
        let mse = squares / Double(bitmap.width * bitmap.height * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The first top-level MP4 boxes, by type: `moov` before `mdat` is a video that plays while it downloads.
    private func boxes(_ url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        var at = 0, names: [String] = []
        while at + 8 <= data.count, names.count < 8 {
            let size = data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            names.append(String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self))
            guard size >= 8 else { break }
            at += size
        }
        return names
    }

    func testTheVideoDecodesToItsFramesSizeAndLengthAndEndsOnTheExportedSheet() throws {
        _ = try makeBook()
        let video = folder.appendingPathComponent("sheet.mp4"), png = folder.appendingPathComponent("sheet.png")
        let made = try folio(["timelapse", "--book", bookFolder.path, "--size", "320x240", "--seconds", "2", "--fps", "12", "--out", video.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(made.stderr, "", "no progress bar off a terminal")
        let exported = try folio(["export", "--book", bookFolder.path, "--sheet", "2", "--size", "320x240", "--png", png.path])
        XCTAssertEqual(exported.status, 0, exported.stderr)

        var last = [UInt8](repeating: 0, count: 320 * 240 * 4)
        let info = try probe(video.path, last: &last)
        XCTAssertEqual(info.frames, 24)
        XCTAssertEqual(info.width, 320)
        XCTAssertEqual(info.height, 240)
        XCTAssertEqual(info.duration, 2, accuracy: 1.0 / 12 + 0.001)
        XCTAssertEqual(info.fps, 12, accuracy: 0.01)
        XCTAssertEqual(withUnsafeBytes(of: info.codec) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }, "h264")
        XCTAssertEqual(withUnsafeBytes(of: info.pixel_format) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }, "yuv420p")
        let top = try boxes(video)
        XCTAssertEqual(top.first, "ftyp")
        XCTAssertLessThan(try XCTUnwrap(top.firstIndex(of: "moov")), try XCTUnwrap(top.firstIndex(of: "mdat")), "faststart: \(top)")

        // H.264 at 4:2:0 is lossy: the last frame is the exported sheet within 30 dB PSNR (34 dB
        // measured: chroma at half resolution softens saturated ink's edges; a frame missing the
        // last stroke measures 13 dB).
        let sheet = try PNG.read(from: png.path)
        let quality = psnr(last, sheet)
        XCTAssertGreaterThan(quality, 30, "last frame against the export")
        // The same comparison tells a wrong frame: the sheet without its last stroke, or blank.
        let strokes = try BookStore(directory: bookFolder).load().sheets[1].strokes
        let without = CanvasRenderer(width: 320, height: 240, scale: 1)
        without.rebuild(strokes: Array(strokes.dropLast()))
        XCTAssertLessThan(psnr(last, without.frame), 20, "a frame without the last stroke would fail")
        XCTAssertLessThan(psnr(last, CanvasRenderer(width: 320, height: 240, scale: 1).frame), 20)
    }

    func testTheVideoShowsTheSheetsPaper() throws {
        let paper = Paper(kind: .squared, spacing: 16, color: 0x202020)
        let stroke = Stroke(points: (0..<12).map { Point(x: 20 + Double($0) * 12, y: 50) }, style: InkStyle(width: 10, color: 0x0000FF))
        let writer = try BookStore(directory: bookFolder).openForWriting()
        try writer.save(Sketchbook(sheets: [Sheet(strokes: [stroke], paper: paper)]))
        let video = folder.appendingPathComponent("squared.mp4"), png = folder.appendingPathComponent("squared.png")
        let made = try folio(["timelapse", "--book", bookFolder.path, "--size", "192x128", "--seconds", "1", "--fps", "4", "--out", video.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let exported = try folio(["export", "--book", bookFolder.path, "--sheet", "1", "--size", "192x128", "--png", png.path])
        XCTAssertEqual(exported.status, 0, exported.stderr)

        var last = [UInt8](repeating: 0, count: 192 * 128 * 4)
        _ = try probe(video.path, last: &last)
        XCTAssertGreaterThan(psnr(last, try PNG.read(from: png.path)), 30, "the last frame is the exported sheet, squares and all")
        let plain = CanvasRenderer(width: 192, height: 128, scale: 1)
        plain.rebuild(strokes: [stroke])
        XCTAssertLessThan(psnr(last, plain.frame), 25, "the same ink on plain paper would fail")
    }

    func testBadSettingsAreOneLineWithTheirRangesAndWriteNothing() throws {
        _ = try makeBook()
        let video = folder.appendingPathComponent("bad.mp4").path
        let cases: [([String], String)] = [
            (["--size", "321x240"], "folio: --size 321x240: the width must be an even number from 16 to 4096"),
            (["--size", "320x8"], "folio: --size 320x8: the height must be an even number from 16 to 4096"),
            (["--size", "5000x240"], "folio: --size 5000x240: the width must be an even number from 16 to 4096"),
            (["--size", "320by240"], "folio: --size 320by240: give WxH, each side an even number from 16 to 4096"),
            (["--size", "9000x240"], "folio: --size 9000x240: give WxH, each side an even number from 16 to 4096"),
            (["--size", "320x240", "--seconds", "0.5"], "folio: --seconds 0.5: give a number from 1 to 600"),
            (["--size", "320x240", "--seconds", "601"], "folio: --seconds 601.0: give a number from 1 to 600"),
            (["--size", "320x240", "--seconds", "nan"], "folio: --seconds nan: give a number from 1 to 600"),
            (["--size", "320x240", "--fps", "0"], "folio: --fps 0: give a whole number from 1 to 60"),
            (["--size", "320x240", "--fps", "61"], "folio: --fps 61: give a whole number from 1 to 60"),
            (["--size", "320x240", "--sheet", "3"], "folio: the book has 2 sheet(s); there is no sheet 3"),
        ]
        for (options, line) in cases {
            let result = try folio(["timelapse", "--book", bookFolder.path, "--out", video] + options)
            XCTAssertEqual(result.status, 1, "\(options)")
            XCTAssertTrue(result.stderr.hasPrefix(line), "\(result.stderr) should start \(line)")
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: video))
        }
    }

    func testAnUnwritableOutputIsOneLineAndLeavesNothingBehind() throws {
        _ = try makeBook()
        // A folder that is not there, a file where a folder should be, a link, a folder at the name.
        let file = folder.appendingPathComponent("file")
        try Data("keep".utf8).write(to: file)
        let link = folder.appendingPathComponent("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: file.path)
        let taken = folder.appendingPathComponent("taken.mp4")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: false)
        let cases: [(String, String)] = [
            (folder.appendingPathComponent("missing/out.mp4").path, "cannot create a temporary file in"),
            (file.path + "/out.mp4", "Not a directory"),
            (link.path, "is a symbolic link, which Folio neither follows nor replaces"),
            (taken.path, "not a regular file"),
        ]
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for (out, fragment) in cases {
            let result = try folio(["timelapse", "--book", bookFolder.path, "--size", "64x64", "--out", out])
            XCTAssertEqual(result.status, 1, out)
            XCTAssertTrue(result.stderr.hasPrefix("folio: \(out)"), result.stderr)
            XCTAssertTrue(result.stderr.contains(fragment), "\(result.stderr) should say \(fragment)")
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "stdout" && $0 != "stderr" }.sorted(),
                       before.filter { $0 != "stdout" && $0 != "stderr" }, "no temporaries left")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "keep")
    }

    func testADiskThatFillsMidwayLeavesTheOldFileAndNoTemporary() throws {
        // ThreadSanitizer's runtime itself faults at start-up under a file-size limit.
        if ProcessInfo.processInfo.environment["FOLIO_SANITIZER"] == "thread" {
            throw XCTSkip("SKIPPED under ThreadSanitizer: its runtime cannot start with RLIMIT_FSIZE set (`make test` runs this)")
        }
        _ = try makeBook()
        let video = folder.appendingPathComponent("full.mp4")
        try Data("old".utf8).write(to: video)
        // A file-size limit of 4 KiB fails a write as a full disk does (EFBIG; Folio ignores SIGXFSZ).
        let process = Process()
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let folio = me.deletingLastPathComponent().appendingPathComponent("folio").path
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 8 && exec \"$0\" timelapse --book \"$1\" --size 320x240 --seconds 3 --out \"$2\"",
                             folio, bookFolder.path, video.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        XCTAssertTrue(stderr.hasPrefix("folio: \(video.path): writing the MP4: File too large (nothing was written)"), stderr)
        XCTAssertEqual(stderr.filter { $0 == "\n" }.count, 1, stderr)
        XCTAssertEqual(try String(contentsOf: video, encoding: .utf8), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }, [])
    }

    func testAVideoReplacesAnOldOneWhole() throws {
        _ = try makeBook()
        let video = folder.appendingPathComponent("again.mp4")
        try Data("old".utf8).write(to: video)
        let result = try folio(["timelapse", "--book", bookFolder.path, "--size", "64x48", "--seconds", "1", "--fps", "5", "--out", video.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        var last = [UInt8](repeating: 0, count: 64 * 48 * 4)
        XCTAssertEqual(try probe(video.path, last: &last).frames, 5)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }, [])
    }
}
