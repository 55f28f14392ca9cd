import FolioPixels

/// A buffer the compositor will read, handed to the session to draw the next frame straight
/// into: its pixels, and what it lacks relative to the newest frame (the damage of the frames
/// drawn since it last held one; everything for a new buffer). The session brings `missing` up
/// to date along with the frame's own damage, so no frame is drawn elsewhere and copied over.
public struct FrameTarget {
    public let bitmap: Bitmap
    public let missing: Region

    public init(bitmap: Bitmap, missing: Region) {
        self.bitmap = bitmap
        self.missing = missing
    }
}
