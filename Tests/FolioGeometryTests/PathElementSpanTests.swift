import XCTest
@testable import FolioGeometry

final class PathElementSpanTests: XCTestCase {
    func testRangesGrowByANeighbourAndMergeWhereTheyMeet() {
        XCTAssertEqual(PathElement.spans(around: [2..<3, 4..<6, 9..<10], count: 10), [1..<7, 8..<10])
        XCTAssertEqual(PathElement.spans(around: [0..<1], count: 1), [0..<1])
        XCTAssertEqual(PathElement.spans(around: [0..<4, 5..<8], count: 8), [0..<8])
        XCTAssertEqual(PathElement.spans(around: [], count: 5), [])
        XCTAssertEqual(PathElement.spans(around: [0..<0], count: 0), [])
    }
}
