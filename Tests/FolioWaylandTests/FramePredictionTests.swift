import XCTest
@testable import FolioWayland

/// The presentation time a frame drawn now is given, from the frames the compositor presented.
final class FramePredictionTests: XCTestCase {
    private let refresh = 16.0

    private func prediction(presentedAt time: Double, refresh: Double) -> FramePrediction {
        var prediction = FramePrediction()
        prediction.presented(at: time, refresh: refresh)
        return prediction
    }

    func testNothingPresentedYetPredictsNothing() {
        XCTAssertNil(FramePrediction().presentationTime(drawnAt: 1000, queued: 0))
    }

    func testNoConstantRefreshRatePredictsNothing() {
        XCTAssertNil(prediction(presentedAt: 1000, refresh: 0).presentationTime(drawnAt: 1004, queued: 0))
    }

    func testWithNothingQueuedTheFrameLandsOnTheNextRefresh() {
        XCTAssertEqual(prediction(presentedAt: 1000, refresh: refresh).presentationTime(drawnAt: 1003, queued: 0), 1016)
    }

    /// Weston sends the frame callback while the previous frame waits for the screen: the new
    /// frame comes one refresh after that one.
    func testAQueuedFrameGoesFirst() {
        let prediction = prediction(presentedAt: 1000, refresh: refresh)
        XCTAssertEqual(prediction.presentationTime(drawnAt: 1009, queued: 1), 1032)
        XCTAssertEqual(prediction.presentationTime(drawnAt: 1009, queued: 2), 1048)
    }

    func testAnOldPresentationIsSteppedForwardPastNow() {
        let prediction = prediction(presentedAt: 1000, refresh: refresh)
        XCTAssertEqual(prediction.presentationTime(drawnAt: 1100, queued: 0), 1112)
        XCTAssertEqual(prediction.presentationTime(drawnAt: 1100, queued: 1), 1112)
        // Exactly on a refresh boundary: that frame is already being shown, the next one is ours.
        XCTAssertEqual(prediction.presentationTime(drawnAt: 1032, queued: 0), 1048)
    }

    func testTheNewestPresentationAndRefreshCount() {
        var prediction = prediction(presentedAt: 1000, refresh: refresh)
        prediction.presented(at: 1020, refresh: 10)
        XCTAssertEqual(prediction.presentationTime(drawnAt: 1021, queued: 0), 1030)
        // Feedback arriving out of order does not move the last presentation back.
        prediction.presented(at: 1010, refresh: 10)
        XCTAssertEqual(prediction.presentationTime(drawnAt: 1021, queued: 0), 1030)
    }
}
