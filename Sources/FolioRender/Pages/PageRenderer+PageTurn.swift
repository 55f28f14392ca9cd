import FolioLayers
import FolioPixels

/// What drawing a page turn adds to drawing its layers: the leaf's back, the later sheet with the
/// earlier drawing showing through as strongly as the scene says (`SeeThrough`), composed here
/// from the scene's pictures as the scene is drawn.
extension PageRenderer {
    /// Takes a new turn: the earlier drawing that shows through the leaf's back, then the pages
    /// (`prepare(_:)` of the scene's root).
    public func prepare(_ scene: PageTurnScene) {
        composeLeafBack(of: scene, takingDrawing: true)
        prepare(scene.root)
    }

    /// Draws the turn as it is on screen at `time` (ms on the scene's clock; nil: as its layers
    /// show it now), the leaf's back composed for the angle then.
    public func render(_ scene: PageTurnScene, at time: Double? = nil, into target: Bitmap,
                       options: PageRenderOptions = PageRenderOptions()) {
        if let time { scene.present(at: time) }
        composeLeafBack(of: scene, takingDrawing: false)
        render(scene.root, at: time, into: target, options: options)
    }

    /// Puts the leaf's back into the scene: the earlier sheet's drawing (the leaf front's
    /// contents) is taken when asked or when none of its size is held, and shows through the
    /// later sheet's picture (the flat right half's contents) at the scene's `showThrough`.
    private func composeLeafBack(of scene: PageTurnScene, takingDrawing: Bool) {
        guard let earlier = scene.leafFront.contents as? Bitmap, let later = scene.laterRight.contents as? Bitmap else { return }
        let back: SeeThrough
        if let kept = seeThrough, kept.width == earlier.width, kept.height == earlier.height {
            back = kept
            if takingDrawing { back.take(earlier) }
        } else {
            back = SeeThrough(width: earlier.width, height: earlier.height, scale: scale)
            back.take(earlier)
            seeThrough = back
        }
        scene.leafBack.contents = back.picture(over: later, strength: scene.showThrough)
    }
}
