/// How a fold frame is dressed.
public struct PageRenderOptions: Sendable, Equatable {
    public enum Background: Sendable, Equatable {
        /// The procedural dark woven curtain.
        case texture
        /// One opaque colour, 0xRRGGBB.
        case flat(UInt32)
    }

    public var background: Background
    public var shadows: Bool
    /// Render threads sharing the frame's columns (1 = the calling thread only).
    public var threads: Int

    public init(background: Background = .texture, shadows: Bool = true, threads: Int = 1) {
        self.background = background
        self.shadows = shadows
        self.threads = max(1, threads)
    }
}
