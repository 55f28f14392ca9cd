import Foundation
import FolioGeometry
import FolioRender
import FolioSketchbook
import TestCompositor
import XCTest

/// The live app keeps a big sheet's picture up to date in the background: opened on a sheet of
/// 300 strokes that has no picture, left idle, it writes one (private, covering every stroke)
/// while it runs, so a crash from then on reopens at once.
final class SheetPictureProtocolTests: XCTestCase {
    func testAnIdleAppWritesTheBigSheetsPictureWhileItRuns() throws {
        let book = try FolioUnderTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: book) }
        let store = BookStore(directory: URL(fileURLWithPath: book))
        let strokes = (0..<300).map { i in
            let y = 20 + Double(i % 40) * 11
            return Stroke(points: line(from: Point(x: 30 + Double(i / 40) * 70, y: y), to: Point(x: 90 + Double(i / 40) * 70, y: y + 8), count: 12))
        }
        try store.openForWriting().save(Sketchbook(sheets: [Sheet(strokes: strokes)]))
        XCTAssertTrue(store.pictureFiles().isEmpty)

        let folio = try FolioUnderTest(arguments: ["--book", book])
        let deadline = Date().addingTimeInterval(30)
        while store.pictureFiles().isEmpty, Date() < deadline, folio.client.isRunning {
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertTrue(folio.client.isRunning, folio.client.standardError)
        guard let picture = store.pictureFiles().first else {
            return XCTFail("no picture within 30 s of an idle start; folio's stderr:\n\(folio.client.standardError)")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: store.pictureFile(key: picture.key).path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(SheetPicture.count(inKey: picture.key), 300, "the picture covers every stroke")
    }
}
