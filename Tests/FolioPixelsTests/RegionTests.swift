import Dispatch
import FolioPixels
import XCTest

final class RegionTests: XCTestCase {
    let topLeft = PixelRect(x: 10, y: 10, width: 20, height: 20)
    let bottomRight = PixelRect(x: 600, y: 440, width: 30, height: 25)

    func testEmpty() {
        for region in [Region(), Region.empty, Region(PixelRect.empty), Region(PixelRect(x: 5, y: 5, width: -3, height: 4))] {
            XCTAssertTrue(region.isEmpty)
            XCTAssertEqual(region.bounds, PixelRect.empty)
            XCTAssertEqual(region.rectangles, [])
            XCTAssertEqual(region.area, 0)
            XCTAssertEqual(region, Region())
        }
        XCTAssertTrue(Region().union(PixelRect.empty).isEmpty, "an empty rect adds nothing")
        XCTAssertEqual(Region(topLeft).union(PixelRect.empty), Region(topLeft))
        XCTAssertEqual(Region().union(Region(topLeft)), Region(topLeft))
        XCTAssertTrue(Region().contains(PixelRect.empty))
        XCTAssertFalse(Region().contains(topLeft))
    }

    func testOneRectangle() {
        let region = Region(topLeft)
        XCTAssertFalse(region.isEmpty)
        XCTAssertEqual(region.rectangles, [topLeft])
        XCTAssertEqual(region.bounds, topLeft)
        XCTAssertEqual(region.area, 400)
        XCTAssertTrue(region.contains(topLeft))
        XCTAssertFalse(region.contains(topLeft.union(PixelRect(x: 30, y: 10, width: 1, height: 1))))
    }

    func testFarApartRectanglesStayTwo() {
        let region = Region(topLeft).union(bottomRight)
        XCTAssertEqual(region.rectangles, [topLeft, bottomRight])
        XCTAssertEqual(region.area, topLeft.area + bottomRight.area, "not the box spanning both")
        XCTAssertEqual(region.bounds, topLeft.union(bottomRight))
        XCTAssertTrue(region.contains(topLeft))
        XCTAssertTrue(region.contains(bottomRight))
        XCTAssertFalse(region.contains(PixelRect(x: 300, y: 200, width: 1, height: 1)), "nothing between them")
    }

    func testOverlappingRectanglesMerge() {
        // Side by side, same rows: one rectangle.
        let beside = Region(PixelRect(x: 0, y: 0, width: 10, height: 10)).union(PixelRect(x: 5, y: 0, width: 10, height: 10))
        XCTAssertEqual(beside.rectangles, [PixelRect(x: 0, y: 0, width: 15, height: 10)])
        // Overlapping diagonally: y-x bands, no pixel counted twice.
        let diagonal = Region(PixelRect(x: 0, y: 0, width: 10, height: 10)).union(PixelRect(x: 5, y: 5, width: 10, height: 10))
        XCTAssertEqual(diagonal.area, 100 + 100 - 25)
        XCTAssertEqual(diagonal.bounds, PixelRect(x: 0, y: 0, width: 15, height: 15))
        XCTAssertEqual(diagonal.rectangles.count, 3)
        // A rectangle inside another adds nothing; one around everything leaves just itself.
        XCTAssertEqual(Region(topLeft).union(PixelRect(x: 12, y: 12, width: 4, height: 4)), Region(topLeft))
        let frame = PixelRect(x: 0, y: 0, width: 640, height: 480)
        XCTAssertEqual(Region(topLeft).union(bottomRight).union(frame).rectangles, [frame])
    }

    func testUnionOfRegions() {
        var region = Region(topLeft)
        region.formUnion(Region(bottomRight).union(PixelRect(x: 300, y: 10, width: 5, height: 5)))
        XCTAssertEqual(region.area, topLeft.area + bottomRight.area + 25)
        XCTAssertEqual(region, Region(PixelRect(x: 300, y: 10, width: 5, height: 5)).union(bottomRight).union(topLeft),
                       "the same pixels in any order are the same region")
    }

    func testIntersectionWithARectangle() {
        let region = Region(topLeft).union(bottomRight)
        XCTAssertEqual(region.intersection(PixelRect(x: 0, y: 0, width: 100, height: 100)).rectangles, [topLeft])
        XCTAssertEqual(region.intersection(PixelRect(x: 20, y: 20, width: 600, height: 430)).rectangles,
                       [PixelRect(x: 20, y: 20, width: 10, height: 10), PixelRect(x: 600, y: 440, width: 20, height: 10)])
        XCTAssertTrue(region.intersection(PixelRect(x: 100, y: 100, width: 50, height: 50)).isEmpty)
        XCTAssertTrue(region.intersection(PixelRect.empty).isEmpty)
        XCTAssertTrue(Region().intersection(topLeft).isEmpty)
    }

    func testCopiesAreIndependent() {
        var a = Region(topLeft)
        let b = a
        a.formUnion(bottomRight)
        XCTAssertEqual(b.rectangles, [topLeft], "changing a copy leaves the original alone")
        XCTAssertEqual(a.rectangles, [topLeft, bottomRight])
        var c = a
        c.formUnion(Region(PixelRect(x: 0, y: 0, width: 640, height: 480)))
        XCTAssertEqual(a.rectangles, [topLeft, bottomRight])
        XCTAssertEqual(c.rectangles.count, 1)
        let d = a.union(PixelRect(x: 300, y: 300, width: 2, height: 2))
        XCTAssertEqual(a.rectangles.count, 2)
        XCTAssertEqual(d.rectangles.count, 3)
    }

    func testManyRectanglesAndSharingAcrossThreads() {
        var region = Region()
        for i in 0..<100 { region.formUnion(PixelRect(x: i * 20, y: i * 10, width: 5, height: 5)) }
        XCTAssertEqual(region.rectangles.count, 100)
        XCTAssertEqual(region.area, 2500)
        let shared = region
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var own = shared
            own.formUnion(PixelRect(x: 0, y: 0, width: 2000, height: 1000))
            XCTAssertEqual(own.rectangles.count, 1)
            XCTAssertEqual(shared.area, 2500)
        }
        XCTAssertEqual(region.rectangles.count, 100)
    }

    func testDescriptionListsTheRectangles() {
        XCTAssertEqual(Region(topLeft).union(bottomRight).description, "[20x20+10+10, 30x25+600+440]")
        XCTAssertEqual(Region().description, "[]")
    }
}
