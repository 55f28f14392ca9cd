import XCTest
@testable import FolioWayland

/// zwp_text_input_v3's rules as the client keeps them: enable only with the text focus, committed
/// text only at `done`.
final class TextInputStateTests: XCTestCase {
    func testAWishBeforeTheFocusWaitsForItAndLeavingForgetsTheEnable() {
        var state = TextInputState()
        XCTAssertNil(state.want(true), "no enable without the focus")
        XCTAssertEqual(state.enter(), .enable, "the focus arrives: the waiting wish is sent")
        XCTAssertNil(state.enter(), "sent once")
        state.leave()
        XCTAssertFalse(state.enabled)
        XCTAssertEqual(state.enter(), .enable, "the compositor disabled it on leave: enabled again at the next enter")
        XCTAssertEqual(state.want(false), .disable)
        XCTAssertNil(state.want(false))
    }

    func testCommittedTextIsTypedAtDoneOnlyAndOnce() {
        var state = TextInputState()
        _ = state.enter()
        _ = state.want(true)
        state.commitString("Sea")
        state.commitString("Seas")
        XCTAssertEqual(state.done(), "Seas", "the newest commit before done")
        XCTAssertNil(state.done(), "nothing committed since")
        state.commitString("")
        XCTAssertNil(state.done(), "an empty commit types nothing")
        state.commitString("x")
        state.leave()
        XCTAssertNil(state.done(), "a commit cut off by leave is dropped")
    }
}
