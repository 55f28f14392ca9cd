import XCTest
import FolioGeometry

/// `#RRGGBB` as every file spells a colour: written upper-case and zero-padded, read strictly.
final class HexColorTests: XCTestCase {
    func testFormatPadsToSixUpperCaseDigits() {
        XCTAssertEqual(HexColor.format(0x0000FF), "#0000FF")
        XCTAssertEqual(HexColor.format(0xD81B1B), "#D81B1B")
        XCTAssertEqual(HexColor.format(0), "#000000")
        XCTAssertEqual(HexColor.format(0xFFFF_FFFF), "#FFFFFF", "alpha and any high bits are dropped")
    }

    func testParseReadsEitherCase() {
        XCTAssertEqual(HexColor.parse("#0000FF"), 0x0000FF)
        XCTAssertEqual(HexColor.parse("#d81b1b"), 0xD81B1B)
        XCTAssertEqual(HexColor.parse("#7b2FBe"[...]), 0x7B2FBE, "a substring too")
    }

    func testParseRefusesEverythingElse() {
        for text in ["", "#", "0000FF", "#00FF", "#0000FF0", "#00000G", " #0000FF", "#0000FF ",
                     "#+12345", "#-00000", "#0x00FF", "#\u{FF10}\u{FF10}\u{FF10}\u{FF10}\u{FF10}\u{FF10}", "##0000F"] {
            XCTAssertNil(HexColor.parse(text), "\"\(text)\"")
        }
    }

    func testEveryColourRoundTrips() {
        for rgb: UInt32 in [0, 1, 0xF, 0x10, 0xABCDEF, 0xFF_FFFF] + (0..<64).map({ UInt32($0) &* 0x3_F1A7 & 0xFF_FFFF }) {
            XCTAssertEqual(HexColor.parse(HexColor.format(rgb)), rgb)
        }
    }
}
