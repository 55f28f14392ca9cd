import FolioGeometry
import FolioSketchbook
import Foundation
import XCTest

/// `folio timelapse` where libavcodec has no H.264 encoder (an FFmpeg built without x264): one
/// line naming what is missing, status 1, and no video or temporary left. The encoder is taken
/// away by a small library preloaded into `folio`, built here with the C compiler.
final class MissingEncoderCLITests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-no-h264-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Both ways Folio asks libavcodec for an encoder answer "none", as in an FFmpeg without H.264 encoders.
    static let preloadSource = """
        #include <stddef.h>
        struct AVCodec;
        const struct AVCodec *avcodec_find_encoder_by_name(const char *name) { (void)name; return NULL; }
        const struct AVCodec *avcodec_find_encoder(int id) { (void)id; return NULL; }
        """

    /// A component the test needs and cannot make: fail under CI=true, skip loudly elsewhere.
    private func unavailable(_ reason: String) -> Error {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("CI=true and \(reason)")
            return VideoTestError(reason)
        }
        return XCTSkip("SKIPPED: \(reason)")
    }

    /// The preload library, compiled into the test's folder.
    private func buildPreload() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let cc = ["cc", "gcc", "clang"].lazy.flatMap({ name in path.split(separator: ":").map { "\($0)/\(name)" } })
            .first(where: FileManager.default.isExecutableFile) else {
            throw unavailable("no C compiler (cc, gcc or clang) on PATH builds the library that hides the H.264 encoder")
        }
        let source = folder.appendingPathComponent("no-h264.c"), library = folder.appendingPathComponent("no-h264.so")
        try Data(Self.preloadSource.utf8).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cc)
        process.arguments = ["-shared", "-fPIC", "-O1", "-o", library.path, source.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw unavailable("\(cc) could not build the preload library: \(message)") }
        try FileManager.default.removeItem(at: source)
        return library.path
    }

    private func makeBook(_ folder: URL) throws {
        let stroke = Stroke(points: (0..<8).map { Point(x: 10 + Double($0) * 6, y: 20) }, style: InkStyle(width: 6, color: 0x0000FF))
        try BookStore(directory: folder).openForWriting().save(Sketchbook(sheets: [Sheet(strokes: [stroke])]))
    }

    /// `folio timelapse` with `preload` in LD_PRELOAD: its status and what it printed on stderr.
    private func timelapse(book: URL, out: URL, preload: String?) throws -> (status: Int32, stderr: String) {
        let process = Process()
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.executableURL = me.deletingLastPathComponent().appendingPathComponent("folio")
        process.arguments = ["timelapse", "--book", book.path, "--size", "64x48", "--seconds", "1", "--fps", "4", "--out", out.path]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = preload
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    func testWithoutAnH264EncoderTheVideoIsOneLineAndNoFile() throws {
        let preload = try buildPreload()
        let book = folder.appendingPathComponent("book"), outputs = folder.appendingPathComponent("videos")
        try makeBook(book)
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: false)
        let video = outputs.appendingPathComponent("sheet.mp4")

        let result = try timelapse(book: book, out: video, preload: preload)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("folio: \(video.path): this libavcodec"), result.stderr)
        XCTAssertTrue(result.stderr.contains("has no H.264 encoder; install one with libx264"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("(nothing was written)\n"), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path), [], "no video and no temporary")

        // The same run without the preload makes the video: the library, not the book or the
        // command, is what took the encoder away.
        let made = try timelapse(book: book, out: video, preload: nil)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path), ["sheet.mp4"])
    }
}

/// Why a test could not run.
struct VideoTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
