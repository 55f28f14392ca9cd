import XCTest
@testable import FolioReplay

final class SimulatedCompositorTests: XCTestCase {
    func testQuietRefreshesBeforeAnEventPassAtOnce() {
        let compositor = SimulatedCompositor()
        compositor.configure()
        compositor.skipRefreshes(before: 999_999_999)
        XCTAssertGreaterThan(compositor.nextRefresh, 999_999_999, "the next refresh is the first after the event")
        XCTAssertLessThanOrEqual(compositor.nextRefresh, 999_999_999 + SimulatedCompositor.refreshInterval)
    }

    func testRefreshesWithSomethingPendingAreNotSkipped() throws {
        let compositor = SimulatedCompositor()
        compositor.configure()
        compositor.requestFrame()
        compositor.skipRefreshes(before: 10_000)
        XCTAssertEqual(compositor.nextRefresh, SimulatedCompositor.refreshInterval, "a frame callback is due at the first refresh")
    }
}
