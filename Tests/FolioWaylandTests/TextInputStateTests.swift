import XCTest
@testable import FolioWayland

/// zwp_text_input_v3's rules as the client keeps them: enable only with the text focus, the text
/// typed told as the surrounding text, deletions and committed text only at `done`.
final class TextInputStateTests: XCTestCase {
    func testAWishBeforeTheFocusWaitsForItAndLeavingForgetsTheEnable() {
        var state = TextInputState()
        XCTAssertNil(state.want("Book"), "no enable without the focus")
        XCTAssertEqual(state.enter(), .enable(surrounding: "Book"), "the focus arrives: the waiting wish is sent")
        XCTAssertNil(state.enter(), "sent once")
        XCTAssertEqual(state.want("Books"), .update(surrounding: "Books"), "the name changed: the keyboard is told")
        XCTAssertNil(state.want("Books"), "told once")
        _ = state.leave()
        XCTAssertFalse(state.enabled)
        XCTAssertEqual(state.enter(), .enable(surrounding: "Books"), "the compositor disabled it on leave: enabled again at the next enter")
        XCTAssertEqual(state.want(nil), .disable)
        XCTAssertNil(state.want(nil))
    }

    func testCommittedTextIsTypedAtDoneOnlyAndOnce() {
        var state = TextInputState()
        _ = state.enter()
        _ = state.want("")
        state.commitString("Sea")
        state.commitString("Seas")
        XCTAssertEqual(state.done(), .init(deleting: 0, text: "Seas"), "the newest commit before done")
        XCTAssertNil(state.done(), "nothing committed since")
        state.commitString("")
        XCTAssertNil(state.done(), "an empty commit types nothing")
        state.commitString("x")
        _ = state.leave()
        XCTAssertNil(state.done(), "a commit cut off by leave is dropped")
    }

    func testADeletionBeforeTheCursorCountsTheCharactersItsBytesReach() {
        var state = TextInputState()
        _ = state.enter()
        _ = state.want("Café 🌊")
        state.deleteSurrounding(before: 4)
        XCTAssertEqual(state.done(), .init(deleting: 1, text: nil), "the wave is four bytes")
        _ = state.want("Café ")
        state.deleteSurrounding(before: 2)
        state.commitString("s")
        XCTAssertEqual(state.done(), .init(deleting: 2, text: "s"), "a character cut in two goes whole: the space and the é's last byte")
        _ = state.want("Cafs")
        state.deleteSurrounding(before: 1_000_000)
        XCTAssertEqual(state.done(), .init(deleting: 4, text: nil), "no further than the text")
        state.deleteSurrounding(before: 0)
        XCTAssertNil(state.done())
    }

    func testTheCompositionShowsFromDoneUntilTheNextDoneWithoutOneOrTheFocusGoes() {
        var state = TextInputState()
        _ = state.enter()
        _ = state.want("Sea")
        state.preeditString("sh")
        XCTAssertEqual(state.done(), .init(deleting: 0, text: nil, composing: "sh"), "shown at done")
        state.preeditString("sh")
        XCTAssertNil(state.done(), "the same composition again changes nothing")
        state.preeditString("shell")
        XCTAssertEqual(state.done(), .init(deleting: 0, text: nil, composing: "shell"))
        state.commitString(" shells")
        XCTAssertEqual(state.done(), .init(deleting: 0, text: " shells", composing: ""), "committed: a done without a preedit clears it")
        state.preeditString("x")
        _ = state.done()
        XCTAssertEqual(state.leave(), "", "the focus went: the composition goes")
        XCTAssertNil(state.leave(), "nothing showed")
    }
}
