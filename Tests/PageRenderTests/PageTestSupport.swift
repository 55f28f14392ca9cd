import Foundation
import FolioGeometry
import FolioLayers
import FolioPixels
@testable import FolioRender

/// A canvas with something to see: paper, a grid of blue lines and a few filled blocks, so
/// mirrored, shifted or blurred pages show. Deterministic.
func makeTestCanvas(width: Int, height: Int) -> Bitmap {
    let canvas = Bitmap(width: width, height: height, color: 0xFFFF_FFFF)
    let step = max(8, width / 24)
    var x = step / 2
    while x < width {
        canvas.fill(0xFF00_00FF, in: PixelRect(x: x, y: 0, width: 2, height: height))
        x += step
    }
    var y = step / 2
    while y < height {
        canvas.fill(0xFF00_00FF, in: PixelRect(x: 0, y: y, width: width, height: 2))
        y += step
    }
    canvas.fill(0xFFCC_2200, in: PixelRect(x: width / 8, y: height / 6, width: width / 6, height: height / 5))
    canvas.fill(0xFF11_8833, in: PixelRect(x: width * 5 / 8, y: height / 2, width: width / 5, height: height / 4))
    return canvas
}

/// Writes `bitmap` as a binary PPM (opaque frames) when FOLD_DUMP names a folder: for looking at.
func dump(_ bitmap: Bitmap, name: String) {
    guard let folder = ProcessInfo.processInfo.environment["FOLD_DUMP"] else { return }
    var data = Data("P6\n\(bitmap.width) \(bitmap.height)\n255\n".utf8)
    data.reserveCapacity(bitmap.width * bitmap.height * 3 + 20)
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width {
            let p = bitmap.pixel(x: x, y: y)
            data.append(UInt8((p >> 16) & 0xFF)); data.append(UInt8((p >> 8) & 0xFF)); data.append(UInt8(p & 0xFF))
        }
    }
    try? data.write(to: URL(fileURLWithPath: "\(folder)/\(name).ppm"))
}

/// The pinch fold's scene and the page renderer that draws it, paired as the app pairs them.
final class FoldFixture {
    let scene: FoldScene
    let renderer: PageRenderer
    var pixelWidth: Int { renderer.pixelWidth }
    var pixelHeight: Int { renderer.pixelHeight }
    var scale: Double { renderer.scale }

    init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1, kernels: PageKernels = .best) {
        renderer = PageRenderer(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, kernels: kernels)
        scene = FoldScene(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale)
    }

    /// A window of `width`×`height` logical pixels at `scale`, its buffer and scene sized as the app
    /// sizes them (`Session.sceneSize`: the rounded buffer over the scale).
    convenience init(width: Int, height: Int, scale: BufferScale, kernels: PageKernels = .best) {
        self.init(pixelWidth: scale.pixels(width), pixelHeight: scale.pixels(height), scale: scale.factor, kernels: kernels)
    }

    /// The pages take their contents from `canvas`, as a pinch does when it begins.
    func prepare(canvas: Bitmap) {
        scene.setContents(canvas)
        renderer.prepare(scene.root)
    }

    /// The fold at scale `s` (clamped to 0.48…1).
    func render(foldScale s: Double, into target: Bitmap, options: PageRenderOptions = PageRenderOptions()) {
        scene.setScale(s)
        renderer.render(scene.root, into: target, options: options)
    }

    func pageImage(index: Int, back: Bool) -> PageImage { renderer.pageImage(index: index, back: back) }
}
