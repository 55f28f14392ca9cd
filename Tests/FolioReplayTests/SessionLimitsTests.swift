import FolioCore
import FolioGeometry
import FolioInput
import XCTest

/// Sizes from outside (a compositor's configure, a trace's resize) beyond what the renderer draws
/// are fitted and reported, never a crash.
final class SessionLimitsTests: XCTestCase {
    func testAResizeBeyondTheLimitsIsFittedAndReported() {
        let session = Session(width: 640, height: 400)
        var warnings: [String] = []
        session.onRequest = { if case let .warn(message) = $0 { warnings.append(message) } }
        session.handle(.resize(width: 5000, height: 3000, scale: 2), at: 0)
        XCTAssertEqual([session.width, session.height, session.scale], [5000, 3000, 1])
        XCTAssertEqual(session.pixelWidth, 5000)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("5000x3000 window at scale 2") ?? false, warnings.first ?? "no warning")
        _ = session.renderFrame()
    }

    func testASessionMadeTooLargeStartsFitted() {
        let session = Session(width: 9000, height: 100, scale: 3)
        XCTAssertLessThanOrEqual(session.pixelWidth, SurfaceLimits.maximumBufferSide)
        XCTAssertEqual(session.scale, 1)
    }
}
