import Foundation
import XCTest

/// GNOME's compositor: headless Mutter (Tests/Compositors/mutter_session.py). Folio maps and
/// commits; Mutter's remote-desktop D-Bus interface draws two strokes with a virtual pointer and
/// presses Ctrl+Z; SIGTERM ends Folio cleanly with the one stroke left saved in its book.
final class MutterTests: XCTestCase {
    func testFolioMapsDrawsUndoesAndSavesUnderMutter() throws {
        try CompositorScript.run("mutter_session.py", compositor: "Mutter", artifacts: "mutter")
    }
}
