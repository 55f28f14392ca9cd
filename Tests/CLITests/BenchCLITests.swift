import Foundation
import XCTest

/// `folio bench` as a person comparing buffer scales runs it: the figures, not their times.
extension CLITests {
    func testBenchTakesPageTurnFramesAtTheBufferScaleAskedFor() throws {
        let result = try run(["bench", "--only", "flip.frame", "--size", "1280x800", "--scale", "1.5", "--threads", "1",
                              "--progress", "0.25", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let figures = try XCTUnwrap(object?["results"] as? [[String: Any]])
        XCTAssertEqual(figures.compactMap { $0["name"] as? String }, ["floor.memcpy", "flip.frame"])
        for figure in figures {
            XCTAssertEqual(figure["size"] as? String, "1280x800", "sizes stay logical")
            XCTAssertEqual(figure["buffer_scale"] as? Double, 1.5)
        }
        XCTAssertEqual(figures.last?["progress"] as? Double, 0.25)
        XCTAssertEqual(figures.last?["threads"] as? Int, 1)
        XCTAssertGreaterThan(figures.last?["p50_ms"] as? Double ?? 0, 0)
    }

    func testBenchTimesFoldAndTurnFramesEndToEnd() throws {
        let result = try run(["bench", "--only", "frame.", "--size", "1280x800", "--threads", "1", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let figures = try XCTUnwrap(object?["results"] as? [[String: Any]])
        XCTAssertEqual(figures.compactMap { $0["name"] as? String }, ["floor.memcpy", "frame.fold", "frame.flip"])
        for figure in figures.dropFirst() {
            XCTAssertEqual(figure["threads"] as? Int, 1)
            XCTAssertGreaterThan(figure["p50_ms"] as? Double ?? 0, 0)
        }
    }

    func testBenchRefusesAScaleOutsideItsRange() throws {
        let result = try run(["bench", "--only", "flip.frame", "--size", "1280x800", "--scale", "9"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--scale"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }
}

extension CLITests {
    /// `shape.recognize`: the hold's recognition timed on strokes of 100, 1,000 and 10,000 points.
    func testBenchTimesShapeRecognitionAtThreeStrokeLengths() throws {
        let result = try run(["bench", "--only", "shape.", "--size", "1920x1200", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let figures = try XCTUnwrap(object?["results"] as? [[String: Any]])
        XCTAssertEqual(figures.compactMap { $0["name"] as? String }, ["floor.memcpy", "shape.recognize", "shape.recognize", "shape.recognize"])
        XCTAssertEqual(figures.compactMap { $0["points"] as? Int }, [100, 1000, 10_000])
        for figure in figures.dropFirst() { XCTAssertGreaterThan(figure["p50_ms"] as? Double ?? 0, 0) }
    }
}
