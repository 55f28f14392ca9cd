import XCTest
import FolioGeometry
@testable import FolioLayers

final class LayerTests: XCTestCase {
    func testFrameIsPositionMinusAnchorTimesSize() {
        let layer = Layer(bounds: Rect(x: 0, y: 0, width: 200, height: 100))
        layer.anchorPoint = Point(x: 1, y: 0.5)
        layer.position = Point(x: 300, y: 300)
        XCTAssertEqual(layer.frame, Rect(x: 100, y: 250, width: 200, height: 100))
    }

    func testTransformTurnsAboutTheAnchor() {
        let parent = Layer(bounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let layer = Layer(bounds: Rect(x: 0, y: 0, width: 200, height: 100))
        parent.addSublayer(layer)
        layer.anchorPoint = Point(x: 0, y: 0)
        layer.position = Point(x: 500, y: 500)
        layer.transform = .rotation(.pi / 2, 0, 0, 1)
        // The far corner (200, 0) swings about the anchor (500, 500) to (500, 700).
        let p = layer.transformToRoot.project(Point(x: 200, y: 0))
        XCTAssertEqual(p?.x ?? .nan, 500, accuracy: 1e-9)
        XCTAssertEqual(p?.y ?? .nan, 700, accuracy: 1e-9)
    }

    func testSublayerTransformActsAboutTheParentAnchor() {
        let parent = Layer(bounds: Rect(x: 0, y: 0, width: 400, height: 400))
        parent.position = Point(x: 200, y: 200)
        parent.sublayerTransform = .perspective(distance: 500)
        let root = Layer(bounds: Rect(x: 0, y: 0, width: 400, height: 400))
        root.addSublayer(parent)
        let child = Layer(bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        child.position = Point(x: 300, y: 200)  // 100 right of the parent's anchor
        child.zPosition = 100  // toward the viewer: w = 1 − 100/500 = 0.8
        parent.addSublayer(child)
        let centre = child.transformToRoot.project(Point(x: 50, y: 50))
        XCTAssertEqual(centre?.x ?? .nan, 200 + 100 / 0.8, accuracy: 1e-9)
        XCTAssertEqual(centre?.y ?? .nan, 200, accuracy: 1e-9)
    }

    func testRoundedPathMasksOnlyTheChosenCorners() {
        let path = LayerPath(roundedRect: Rect(x: 0, y: 0, width: 100, height: 100), radius: 25, corners: [.topLeft])
        XCTAssertFalse(path.contains(Point(x: 1, y: 1)))
        XCTAssertTrue(path.contains(Point(x: 99, y: 1)))
        XCTAssertTrue(path.contains(Point(x: 25, y: 25)))
        XCTAssertEqual(path.polygon(segmentsPerCorner: 4).count, 5 + 3)
    }

    /// The scene's pages land on the reference corners: where Core Animation puts the same layers (1920×1200).
    func testFoldSceneMatchesTheReferenceCorners() {
        let scene = FoldScene(width: 1920, height: 1200)
        XCTAssertEqual(scene.pages.map(\.side), [.left, .right])
        let table: [(Double, [(Double, Double)])] = [
            (1.0, [(0, 0), (960, 0), (960, 1200), (0, 1200)]),
            (0.9, [(11.7, -23.2), (960, 60), (960, 1140), (11.7, 1223.2)]),
            (0.75, [(277.0, -3.7), (960, 150), (960, 1050), (277.0, 1203.7)]),
            (0.6, [(714.9, 104.2), (960, 240), (960, 960), (714.9, 1095.8)]),
            (0.48, [(997.6, 226.0), (960, 312), (960, 888), (997.6, 974.0)]),
        ]
        for (s, expected) in table {
            scene.setScale(s)
            guard let left = scene.pages[0].contentLayer.screenQuad, let right = scene.pages[1].contentLayer.screenQuad
            else { return XCTFail("page behind the viewer at \(s)") }
            for (got, e) in zip(left.corners, expected) {
                XCTAssertEqual(got.x, e.0, accuracy: 0.051, "left s=\(s)")
                XCTAssertEqual(got.y, e.1, accuracy: 0.051, "left s=\(s)")
            }
            // The right page mirrors the left about x = 960.
            let mirrored = [right.topRight, right.topLeft, right.bottomLeft, right.bottomRight]
            for (got, e) in zip(mirrored, expected) {
                XCTAssertEqual(1920 - got.x, e.0, accuracy: 0.051, "right s=\(s)")
                XCTAssertEqual(got.y, e.1, accuracy: 0.051, "right s=\(s)")
            }
            XCTAssertEqual(scene.pages[0].shadowLayer.facesAway, s < 0.5, "s=\(s)")
        }
    }

    func testSceneClampsTheScale() {
        let scene = FoldScene(width: 800, height: 600)
        scene.setScale(0.2)
        XCTAssertEqual(scene.scale, 0.48)
        scene.setScale(1.7)
        XCTAssertEqual(scene.scale, 1)
        XCTAssertEqual(scene.pages[0].shadowLayer.transform, FoldScene.perspective)
    }
}
