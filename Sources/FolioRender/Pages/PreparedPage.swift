import FolioGeometry
import FolioLayers
import FolioPixels

/// The canvas columns a page layer shows: its contents rectangle in whole columns of a
/// frame-sized bitmap (a half page on an odd width shares the middle column with its neighbour).
struct PageShape: Equatable {
    var firstColumn: Int
    var columns: Int

    init(contents: Bitmap, contentsRect cr: Rect, pixelWidth: Int) {
        let width = Double(pixelWidth)
        let first = min(max(Int((cr.minX * width).rounded(.down)), 0), pixelWidth - 1)
        let end = min(max(Int((cr.maxX * width).rounded(.up)), first + 1), pixelWidth)
        firstColumn = first
        columns = end - first
    }
}

/// One page layer as a gesture prepares it: its contents taken into front and back images (the
/// back made only once the page turns away), its mask in canvas pixels, and the column plans
/// each frame fills.
final class PreparedPage {
    let shape: PageShape
    private(set) var layer: Layer
    private(set) var contents: Bitmap
    let front: PageImage
    let back: PageImage
    private(set) var mask: PixelMask
    private(set) var backReady = false
    let plans: UnsafeMutablePointer<ColumnPlan>
    /// The screen columns whose plans the last frame set (all others are empty).
    var plannedColumns = 0..<0
    /// The geometry those plans were made from: while it stays the same (a sheet lying still
    /// under a turning leaf) and the images are not loaded again, they are still right.
    var plannedFor: PageGeometry?

    init(shape: PageShape, layer: Layer, contents: Bitmap, pixelWidth: Int, pixelHeight: Int) {
        self.shape = shape
        self.layer = layer
        self.contents = contents
        front = PageImage(columns: shape.columns, rows: pixelHeight, firstCanvasColumn: shape.firstColumn)
        back = PageImage(columns: shape.columns, rows: pixelHeight, firstCanvasColumn: shape.firstColumn)
        plans = .allocate(capacity: pixelWidth)
        plans.initialize(repeating: ColumnPlan(), count: pixelWidth)
        mask = PixelMask(path: Self.canvasMask(of: layer, pixelWidth: pixelWidth, pixelHeight: pixelHeight))
        load(layer: layer, contents: contents, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    deinit {
        plans.deallocate()
    }

    /// Takes the page's pixels from `contents` through the layer's contents rectangle and mask.
    func load(layer: Layer, contents: Bitmap, pixelWidth: Int, pixelHeight: Int) {
        precondition(contents.width == pixelWidth && contents.height == pixelHeight,
                     "page contents \(contents.width)x\(contents.height) are not the frame's \(pixelWidth)x\(pixelHeight)")
        self.layer = layer
        self.contents = contents
        mask = PixelMask(path: Self.canvasMask(of: layer, pixelWidth: pixelWidth, pixelHeight: pixelHeight))
        front.load(from: contents, mask: mask)
        backReady = false
        plannedFor = nil
    }

    /// The back face: the front mirrored, faded and softened (made once per gesture, when needed).
    func loadBack(blurRadius: Int) {
        back.loadBack(of: front, mask: mask, blurRadius: blurRadius)
        backReady = true
        plannedFor = nil
    }

    /// The layer's mask (its bounds when it has none) in the pixels of its contents.
    private static func canvasMask(of layer: Layer, pixelWidth: Int, pixelHeight: Int) -> LayerPath {
        let b = layer.bounds, cr = layer.contentsRect
        let m = layer.mask ?? LayerPath(rect: b)
        let kx = cr.width * Double(pixelWidth) / b.width, ky = cr.height * Double(pixelHeight) / b.height
        let origin = Point(x: cr.minX * Double(pixelWidth) + (m.rect.minX - b.minX) * kx,
                           y: cr.minY * Double(pixelHeight) + (m.rect.minY - b.minY) * ky)
        return LayerPath(roundedRect: Rect(x: origin.x, y: origin.y, width: m.rect.width * kx, height: m.rect.height * ky),
                         radius: m.radius * min(kx, ky), corners: m.roundedCorners)
    }
}
