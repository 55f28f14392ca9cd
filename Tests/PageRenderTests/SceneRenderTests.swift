import XCTest
import FolioGeometry
import FolioLayers
import FolioPixels
@testable import FolioRender

/// The page renderer draws whatever scene it is given, not only the fold's two pages: a third
/// layer turning over two flat ones (the page turn's shape), back faces, single-sided layers, and
/// a backdrop image, each checked against the layer math.
final class SceneRenderTests: XCTestCase {
    private let (w, h) = (640, 400)
    private let blue: UInt32 = 0xFF00_00FF, red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00

    /// Sheet A: blue left half, red right half. Sheet B: green.
    private func sheets() -> (Bitmap, Bitmap) {
        let a = Bitmap(width: w, height: h, color: blue)
        a.fill(red, in: PixelRect(x: w / 2, y: 0, width: w / 2, height: h))
        return (a, Bitmap(width: w, height: h, color: green))
    }

    /// A half-page layer turning about the spine, as the page turn builds it.
    private func page(_ contents: Bitmap, right: Bool) -> Layer {
        let layer = Layer(bounds: Rect(x: 0, y: 0, width: Double(w) / 2, height: Double(h)))
        layer.anchorPoint = Point(x: right ? 0 : 1, y: 0.5)
        layer.position = Point(x: Double(w) / 2, y: Double(h) / 2)
        layer.contentsRect = Rect(x: right ? 0.5 : 0, y: 0, width: 0.5, height: 1)
        layer.contents = contents
        return layer
    }

    /// Sheet A's left half and sheet B's right half lie flat; A's right half turns by `angle`.
    private func turnScene(angle: Double) -> (root: Layer, leaf: Layer) {
        let (a, b) = sheets()
        let root = Layer(bounds: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        root.anchorPoint = .zero
        root.addSublayer(page(a, right: false))
        root.addSublayer(page(b, right: true))
        let leaf = page(a, right: true)
        leaf.transform = Transform3D.perspective(distance: 1.25 * Double(w)).rotated(angle, 0, 1, 0)
        root.addSublayer(leaf)
        return (root, leaf)
    }

    private func render(_ root: Layer, shadows: Bool = false) -> Bitmap {
        let renderer = PageRenderer(pixelWidth: w, pixelHeight: h)
        let frame = Bitmap(width: w, height: h)
        renderer.render(root, into: frame, options: .init(background: .flat(0), shadows: shadows))
        return frame
    }

    /// The leaf's outer edge on screen at mid-height, in pixels.
    private func outerEdge(_ leaf: Layer) throws -> Double {
        try XCTUnwrap(leaf.transformToRoot.project(Point(x: Double(w) / 2, y: Double(h) / 2))).x
    }

    private func channels(_ p: UInt32) -> (r: UInt32, g: UInt32, b: UInt32) { ((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF) }

    func testAnUnturnedLeafShowsItsSheetExactly() {
        let (root, _) = turnScene(angle: 0)
        let frame = render(root)
        let (a, _) = sheets()
        var differing = 0
        for y in 0..<h { for x in 0..<w where frame.pixel(x: x, y: y) != a.pixel(x: x, y: y) { differing += 1 } }
        XCTAssertEqual(differing, 0)
    }

    func testATurningLeafCoversTheNextSheetUpToItsProjectedEdge() throws {
        let (root, leaf) = turnScene(angle: -0.3 * .pi)
        let frame = render(root)
        let edge = try outerEdge(leaf)
        XCTAssertLessThan(edge, Double(w) - 20, "the leaf has turned")
        for y in [h / 4, h / 2, 3 * h / 4] {
            let onLeaf = channels(frame.pixel(x: Int(edge) - 3, y: y)), beyond = frame.pixel(x: Int(edge) + 3, y: y)
            XCTAssertGreaterThan(onLeaf.r, 100, "row \(y): the leaf's red, lit by its turn")
            XCTAssertEqual(onLeaf.g, 0)
            XCTAssertEqual(beyond, green, "row \(y): the next sheet beneath")
            XCTAssertEqual(frame.pixel(x: 10, y: y), blue, "the flat left half")
        }
    }

    func testPastNinetyDegreesTheLeafShowsItsBackOverTheLeftHalf() throws {
        let (root, leaf) = turnScene(angle: -0.75 * .pi)
        let frame = render(root)
        let edge = try outerEdge(leaf)
        XCTAssertLessThan(edge, Double(w) / 2 - 20, "the leaf lies over the left half")
        let back = channels(frame.pixel(x: Int(edge) + 4, y: h / 2))
        // The back of red paper: the mirrored drawing faded toward white, never a hole.
        XCTAssertGreaterThan(back.r, back.b)
        XCTAssertGreaterThan(back.g, 0, "faded toward paper")
        XCTAssertEqual(frame.pixel(x: Int(edge) - 4, y: h / 2), blue)
        XCTAssertEqual(frame.pixel(x: w - 10, y: h / 2), green)
    }

    func testASingleSidedLeafFacingAwayIsNotDrawn() {
        let (root, leaf) = turnScene(angle: -0.75 * .pi)
        leaf.isDoubleSided = false
        let frame = render(root)
        for x in stride(from: 5, to: w / 2 - 2, by: 20) { XCTAssertEqual(frame.pixel(x: x, y: h / 2), blue, "x \(x)") }
    }

    func testALiftedLeafShadesTheSheetBeneathIt() throws {
        let (root, leaf) = turnScene(angle: -0.4 * .pi)
        leaf.shadowPath = LayerPath(rect: leaf.bounds)
        leaf.shadowOpacity = 0.9
        leaf.shadowRadius = 100
        let lit = render(root, shadows: true), plain = render(root, shadows: false)
        let x = Int(try outerEdge(leaf)) + 6
        XCTAssertLessThan(channels(lit.pixel(x: x, y: h / 2)).g, channels(plain.pixel(x: x, y: h / 2)).g,
                          "the next sheet darkens beside the lifted leaf")
        XCTAssertEqual(lit.pixel(x: 10, y: h / 2), plain.pixel(x: 10, y: h / 2), "far from the leaf, nothing changes")
    }

    func testTheRootsContentsAreTheBackdrop() {
        let image = makeTestCanvas(width: w, height: h)
        let root = Layer(bounds: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        root.contents = image
        let renderer = PageRenderer(pixelWidth: w, pixelHeight: h)
        let frame = Bitmap(width: w, height: h)
        renderer.prepare(root)
        renderer.render(root, into: frame)
        var differing = 0
        for y in 0..<h { for x in 0..<w where frame.pixel(x: x, y: y) != image.pixel(x: x, y: y) { differing += 1 } }
        XCTAssertEqual(differing, 0)
    }
}
