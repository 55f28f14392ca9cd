import FolioLayers
import FolioPixels

extension PageRenderer {
    /// Every visible layer with bitmap contents under `root` (the root's own contents are the
    /// backdrop), in painter's order: a layer, then its sublayers.
    func collectPages(_ root: Layer) {
        found.removeAll(keepingCapacity: true)
        func visit(_ layer: Layer) {
            guard !layer.isHidden else { return }
            if let contents = layer.contents as? Bitmap { found.append((layer, contents)) }
            for sublayer in layer.sublayers { visit(sublayer) }
        }
        for sublayer in root.sublayers { visit(sublayer) }
    }

    /// Whether the pages found are the pages prepared: the same layers with the same contents objects.
    func matchesPrepared() -> Bool {
        guard found.count == pages.count else { return false }
        for (entry, page) in zip(found, pages) where entry.layer !== page.layer || entry.contents !== page.contents {
            return false
        }
        return true
    }

    /// Loads the found pages' images: every one, or only those whose layer or contents object is
    /// not what was loaded (a scene that swapped a page's contents mid-gesture).
    func load(onlyChanged: Bool) {
        // Reuse the images of the last gesture where a page keeps its shape (they are large).
        var spare = pages
        pages = found.map { entry in
            if onlyChanged, let same = spare.firstIndex(where: { $0.layer === entry.layer && $0.contents === entry.contents }) {
                return spare.remove(at: same)
            }
            let shape = PageShape(contents: entry.contents, contentsRect: entry.layer.contentsRect, pixelWidth: pixelWidth)
            if let reused = spare.firstIndex(where: { $0.shape == shape }).map({ spare.remove(at: $0) }) {
                reused.load(layer: entry.layer, contents: entry.contents, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
                return reused
            }
            return PreparedPage(shape: shape, layer: entry.layer, contents: entry.contents, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        }
    }
}
