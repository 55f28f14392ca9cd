import FolioCore
import FolioGeometry
import FolioInput
import FolioSketchbook
import XCTest

/// Sizes from outside (a compositor's configure, a trace's resize) beyond what the renderer draws
/// are fitted and reported, never a crash.
final class SessionLimitsTests: XCTestCase {
    func testAResizeBeyondTheLimitsIsFittedAndReported() {
        let session = Session(width: 640, height: 400)
        var warnings: [String] = []
        session.onRequest = { if case let .warn(message) = $0 { warnings.append(message) } }
        session.handle(.resize(width: 5000, height: 3000, scale: 2), at: 0)
        XCTAssertEqual([session.width, session.height], [5000, 3000])
        XCTAssertEqual(session.scale, 1)
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

    /// A compositor's coordinates are bounded only by wl_fixed (±8388608), and nothing bounds a
    /// Double from elsewhere: a stroke to 1e20 or ±1e308 is drawn, clamped to the book's range
    /// (so the book reads back) and reported once.
    func testAStrokeToExtremeCoordinatesIsClampedAndReported() {
        let session = Session(width: 640, height: 400)
        var warnings: [String] = []
        session.onRequest = { if case let .warn(message) = $0 { warnings.append(message) } }
        session.handle(.touchDown(id: 1, at: Point(x: 50, y: 50)), at: 0)
        session.handle(.touchFrame, at: 0)
        for (i, p) in [Point(x: 1e20, y: 10), Point(x: -1e308, y: 1e308), Point(x: 8388608, y: .nan), Point(x: 60, y: 60)].enumerated() {
            session.handle(.touchMotion(id: 1, to: p), at: Double(i + 1) * 16)
            session.handle(.touchFrame, at: Double(i + 1) * 16)
            _ = session.renderFrame()
        }
        session.handle(.touchUp(id: 1), at: 100)
        session.handle(.touchFrame, at: 100)
        _ = session.renderFrame()
        let far = SurfaceLimits.farthestCoordinate
        XCTAssertEqual(session.book.sheet.strokes.first?.points,
                       [Point(x: 50, y: 50), Point(x: far, y: 10), Point(x: -far, y: far), Point(x: far, y: 0), Point(x: 60, y: 60)])
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("beyond ±1000000") ?? false, warnings.first ?? "no warning")
    }

    /// A page turn from a touch at x = ∞ then dragged to NaN made the leaf's angle NaN, which
    /// trapped drawing the see-through (found by the extreme-value fuzzer): points are clamped
    /// before anything reads them.
    func testATurnFromNonFinitePointsIsDrawn() {
        let book = Sketchbook(sheets: [Sheet(strokes: [Stroke(points: [Point(x: 10, y: 10)])])], currentSheet: 0)
        let session = Session(book: book, width: 640, height: 400)
        session.handle(.touchDown(id: 1, at: Point(x: .infinity, y: 100)), at: 0)
        session.handle(.touchFrame, at: 0)
        XCTAssertEqual(session.mode, .turning(.forward))
        session.handle(.touchMotion(id: 1, to: Point(x: .nan, y: -.infinity)), at: 16)
        session.handle(.touchFrame, at: 16)
        _ = session.renderFrame()
        session.handle(.touchUp(id: 1), at: 32)
        session.handle(.touchFrame, at: 32)
        session.advance(to: 5000)
        _ = session.renderFrame()
        XCTAssertEqual(session.mode, .idle)
    }
}
