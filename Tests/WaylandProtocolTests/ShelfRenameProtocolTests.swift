import FolioCore
import FolioGeometry
import Foundation
import TestCompositor
import XCTest

/// Renaming a book with an on-screen keyboard, as GNOME's and KDE's reach the app: the compositor
/// offers zwp_text_input_v3 and gives the text focus with the keyboard's; the app enables its
/// text input while a name is typed and disables it when the name is done; what the keyboard
/// commits (`commit_string`, then `done`) is typed into the name.
final class ShelfRenameProtocolTests: XCTestCase {
    private func requests(_ folio: FolioUnderTest, since count: Int) -> [TextInputRequest] {
        Array(folio.compositor.observation.textInputRequests.dropFirst(count))
    }

    /// The app with a keyboard and a text input, its book closed onto the shelf with Escape.
    private func onTheShelf() throws -> (FolioUnderTest, ShelfOnScreen, ListedBook) {
        let folio = try FolioUnderTest(width: 640, height: 480, capabilities: [.touch, .keyboard], textInput: true)
        let shelf = ShelfOnScreen(width: 640, height: 480)
        _ = try folio.compositor.wait(for: "a wl_keyboard and a text input") { $0.keyboardObjects > 0 && $0.textInputObjects > 0 ? true : nil }
        try folio.compositor.press(KeyCode.escape)
        let book = try XCTUnwrap(try folio.waitForBooks("the book the app opened") { $0.count == 1 }.first)
        try folio.waitForCovers([book.coverColor], on: shelf, "the shelf")
        return (folio, shelf, book)
    }

    func testRenamingThroughTheOnScreenKeyboardEnablesTypesAndDisablesTextInput() throws {
        let (folio, shelf, book) = try onTheShelf()
        XCTAssertFalse(folio.compositor.observation.textInputEnabled, "no name is being typed")
        XCTAssertEqual(requests(folio, since: 0), [], "nothing asked of the text input before renaming")

        // Rename, then the cover: the name is typed, so the on-screen keyboard is asked for.
        try folio.tap(try shelf.centre(of: .rename))
        try folio.tap(try shelf.coverCentre(0, of: 1))
        _ = try folio.waitWhileRunning("the text input enabled") { $0.textInputEnabled ? true : nil }
        XCTAssertEqual(requests(folio, since: 0), [
            .enable,
            .contentType(hint: 0, purpose: 0),  // no hint, normal text
            .surroundingText(book.name),  // the cursor at its end
            .commit,
        ])

        // The keyboard deletes the old name before the cursor (its bytes, as it was told it) and
        // commits the new one; `done` applies both, and the keyboard is told the new text.
        let told = folio.compositor.observation.textInputRequests.count
        try folio.compositor.sendTextInput([.deleteSurroundingText(before: UInt32(book.name.utf8.count), after: 0),
                                            .commitString("Sketches"), .done])
        // Told and committed: the two requests arrive one after the other, and a slow build can be seen between them.
        _ = try folio.waitWhileRunning("the new name told and committed") { observation in
            let since = observation.textInputRequests.dropFirst(told)
            return since.contains(.surroundingText("Sketches")) && since.last == .commit ? true : nil
        }
        // Each character deleted, then the text typed, is told back as the new surrounding text.
        let surroundings = requests(folio, since: told).compactMap { request -> String? in
            if case let .surroundingText(text) = request { text } else { nil }
        }
        XCTAssertEqual(surroundings, (0..<book.name.count).reversed().map { String(book.name.prefix($0)) } + ["Sketches"])
        XCTAssertEqual(requests(folio, since: told).last, .commit)
        // A key's backspace still works beside it.
        try folio.compositor.press(KeyCode.backspace)
        try folio.compositor.sendTextInput([.commitString("s"), .done])
        _ = try folio.waitWhileRunning("the name told again") { $0.textInputRequests.dropFirst(told).filter { $0 == .surroundingText("Sketches") }.count >= 2 ? true : nil }
        try folio.settle()
        XCTAssertEqual(try folio.listedBooks().first?.name, book.name, "nothing is renamed before the name is done")
        let enabledAt = folio.compositor.observation.textInputRequests.count
        try folio.compositor.press(KeyCode.enter)
        XCTAssertEqual(try folio.waitForBooks("the book renamed") { $0.first?.name != book.name }.map(\.name), ["Sketches"])
        _ = try folio.waitWhileRunning("the text input disabled") { $0.textInputEnabled ? nil : true }
        XCTAssertEqual(requests(folio, since: enabledAt), [.disable, .commit], "the keyboard is let go when the name is done")

        try folio.compositor.press(KeyCode.q, modifiers: .control)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
        XCTAssertEqual(try folio.listedBooks().map(\.name), ["Sketches"])
    }

    func testOnlyTheLastCommittedStringIsTypedAndEscapeKeepsTheOldName() throws {
        let (folio, shelf, book) = try onTheShelf()
        try folio.tap(try shelf.centre(of: .rename))
        try folio.tap(try shelf.coverCentre(0, of: 1))
        _ = try folio.waitWhileRunning("the text input enabled") { $0.textInputEnabled ? true : nil }
        // Text typed, then Escape: the typing ends without renaming, and the keyboard is let go.
        try folio.compositor.sendTextInput([.commitString(" draft"), .done])
        try folio.settle()
        try folio.compositor.press(KeyCode.escape)
        _ = try folio.waitWhileRunning("the text input disabled") { $0.textInputEnabled ? nil : true }
        try folio.settle()
        XCTAssertEqual(try folio.listedBooks().map(\.name), [book.name], "Escape keeps the old name")

        // Typed again and kept: of two strings committed before one `done` only the last is typed
        // (a second `done` types nothing more), and a preedit (a word the keyboard still guesses
        // at) never is.
        try folio.tap(try shelf.centre(of: .rename))
        try folio.tap(try shelf.coverCentre(0, of: 1))
        _ = try folio.waitWhileRunning("the text input enabled again") { $0.textInputEnabled ? true : nil }
        try folio.compositor.sendTextInput([.preedit(" dra", cursorBegin: 4, cursorEnd: 4), .done,
                                            .preedit(nil, cursorBegin: 0, cursorEnd: 0), .deleteSurroundingText(before: 0, after: 0),
                                            .commitString(" draft"), .commitString(" 2"), .done, .done])
        try folio.compositor.press(KeyCode.enter)
        XCTAssertEqual(try folio.waitForBooks("the book renamed") { $0.first?.name != book.name }.map(\.name), [book.name + " 2"])
        try folio.compositor.press(KeyCode.q, modifiers: .control)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
    }
}
