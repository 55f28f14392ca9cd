import FolioFiles
import FolioPixels
import FolioRender
import Foundation
import XCTest

final class PNGTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "folio-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Premultiplied pixels of every kind: opaque, transparent, and partly transparent.
    private func sampleBitmap() -> Bitmap {
        let bitmap = Bitmap(width: 37, height: 23)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let alpha = UInt32((x * 7 + y * 11) % 256)
                let red = alpha * UInt32(x) / 36, green = alpha * UInt32(y) / 22, blue = alpha / 2
                bitmap.pixels.storeBytes(of: alpha << 24 | red << 16 | green << 8 | blue,
                                         toByteOffset: y * bitmap.stride + x * 4, as: UInt32.self)
            }
        }
        return bitmap
    }

    /// `encode` gives the very bytes `write` puts in a file (exports write them themselves).
    func testEncodeMatchesWrite() throws {
        let path = folder + "/written.png"
        try PNG.write(sampleBitmap(), to: path)
        XCTAssertEqual(try PNG.encode(sampleBitmap()), try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testRoundTripKeepsPixels() throws {
        let original = sampleBitmap()
        let path = folder + "/sample.png"
        try PNG.write(original, to: path)
        let read = try PNG.read(from: path)
        XCTAssertEqual(read.width, original.width)
        XCTAssertEqual(read.height, original.height)
        for y in 0..<original.height {
            for x in 0..<original.width {
                let a = original.pixel(x: x, y: y), b = read.pixel(x: x, y: y)
                XCTAssertEqual(a >> 24, b >> 24, "alpha at (\(x), \(y))")
                for shift: UInt32 in [0, 8, 16] {
                    // Unpremultiplying to 8 bits and back loses at most one step.
                    XCTAssertEqual(Int((a >> shift) & 0xFF), Int((b >> shift) & 0xFF), accuracy: 1,
                                   "channel \(shift) at (\(x), \(y)): \(String(a, radix: 16)) vs \(String(b, radix: 16))")
                }
            }
        }
    }

    func testOpaquePixelsSurviveExactly() throws {
        let bitmap = Bitmap(width: 4, height: 2, color: 0xFF00_00FF)
        bitmap.fill(0xFF12_3456, in: PixelRect(x: 1, y: 0, width: 2, height: 1))
        let path = folder + "/opaque.png"
        try PNG.write(bitmap, to: path)
        let read = try PNG.read(from: path)
        XCTAssertEqual(read.pixel(x: 0, y: 0), 0xFF00_00FF)
        XCTAssertEqual(read.pixel(x: 1, y: 0), 0xFF12_3456)
        XCTAssertEqual(read.pixel(x: 3, y: 1), 0xFF00_00FF)
    }

    func testWrittenFileIsARealPNG() throws {
        let path = folder + "/real.png"
        try PNG.write(Bitmap(width: 3, height: 5, color: 0xFFFF_FFFF), to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    func testCorruptFileGivesAClearError() throws {
        let path = folder + "/corrupt.png"
        // A PNG signature followed by garbage.
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x42, count: 100))
            .write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PNG.read(from: path)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path), text)
            XCTAssertTrue(text.hasPrefix("cannot read PNG"), text)
        }
    }

    func testTruncatedFileGivesAClearError() throws {
        let good = folder + "/good.png", cut = folder + "/cut.png"
        try PNG.write(sampleBitmap(), to: good)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        XCTAssertThrowsError(try PNG.read(from: cut)) { error in
            XCTAssertTrue("\(error)".contains(cut), "\(error)")
        }
    }

    func testMissingFileAndMissingFolderGiveClearErrors() {
        let missing = folder + "/nothing-here.png"
        XCTAssertThrowsError(try PNG.read(from: missing)) { error in
            XCTAssertTrue("\(error)".contains(missing), "\(error)")
            XCTAssertTrue("\(error)".contains("No such file"), "\(error)")
        }
        let nowhere = folder + "/no/such/folder/out.png"
        XCTAssertThrowsError(try PNG.write(Bitmap(width: 2, height: 2), to: nowhere)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(nowhere): cannot write (nothing was replaced): "), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("No such file or directory"), "\(error)")
        }
    }

    /// A full disk, made by the writer's seam (never a device): the error names the path and the
    /// system's words, and the PNG that was there stays as it was, with no temporary beside it.
    func testFullDiskGivesAnErrorAndKeepsTheFile() throws {
        struct FullDisk: WriteSteps {
            func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String? { String(cString: strerror(ENOSPC)) }
            func sync(_ fd: Int32) -> String? { nil }
        }
        let path = folder + "/final.png"
        try PNG.write(sampleBitmap(), to: path)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PNG.write(Bitmap(width: 64, height: 64), to: path, steps: FullDisk())) { error in
            XCTAssertEqual("\(error)", "\(path): cannot write (nothing was replaced): write: No space left on device")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), good)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["final.png"])
    }

    /// Anything but a regular file at the path is refused and left there: never opened, truncated or removed.
    func testALinkOrAFolderAtThePathIsRefusedAndKept() throws {
        let victim = folder + "/victim", link = folder + "/link.png", directory = folder + "/folder.png"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        XCTAssertThrowsError(try PNG.write(sampleBitmap(), to: link)) {
            XCTAssertEqual("\($0)", "\(link) is a symbolic link, which Folio neither follows nor replaces")
        }
        XCTAssertThrowsError(try PNG.write(sampleBitmap(), to: directory)) {
            XCTAssertTrue("\($0)".hasSuffix("not a regular file, which Folio never replaces"), "\($0)")
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["folder.png", "link.png", "victim"])
    }
}
