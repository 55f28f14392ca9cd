import FolioPixels

/// Which input devices the seat offers (the bits of wl_seat.capability).
public struct SeatCapabilities: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let pointer = SeatCapabilities(rawValue: 1)
    public static let keyboard = SeatCapabilities(rawValue: 2)
    public static let touch = SeatCapabilities(rawValue: 4)
}

/// When the compositor answers frame callbacks.
public enum FramePacing: Sendable {
    /// As soon as the commit that asked for them arrives: the client is never held back.
    case immediate
    /// Only when the test calls `sendFrameDone()`.
    case manual
    /// On a steady display clock of this period, like a monitor's refresh.
    case interval(milliseconds: Int)
    /// A display refreshing `refreshHz` times a second whose compositor composes each vblank
    /// `repaintWindowMilliseconds` before it, as Weston does: a commit before that deadline has
    /// its frame callbacks answered at that vblank, with its time; a later one at the next.
    case display(refreshHz: Double, repaintWindowMilliseconds: Double)
}

/// A frame callback the `.display` clock answered: when (CLOCK_MONOTONIC ms) the commit that
/// asked for it arrived, the vblank it was answered at, and the time `done` carried.
public struct FrameDone: Sendable, Equatable {
    public var committedAt: Double
    public var vblank: Double
    public var time: UInt32
}

/// One wl_touch event, sent as a real compositor sends it; coordinates are surface-local.
public enum TouchEvent: Sendable {
    case down(id: Int32, x: Double, y: Double)
    case motion(id: Int32, x: Double, y: Double)
    case up(id: Int32)
    case frame
    case cancel
}

/// One wl_pointer event; `enter` is sent first by `motion` when the pointer is not over the surface.
public enum PointerEvent: Sendable {
    case motion(x: Double, y: Double)
    case button(code: UInt32, pressed: Bool)
    case leave
    case frame

    /// Linux input event codes (BTN_LEFT, BTN_RIGHT).
    public static let leftButton: UInt32 = 0x110
    public static let rightButton: UInt32 = 0x111
}

/// A copy of pixels the compositor received: premultiplied 0xAARRGGBB, row-major, no padding.
public struct Image: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "\(pixels.count) pixels for \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: Array(repeating: 0, count: width * height))
    }

    public func pixel(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// A pixman bitmap of the same pixels (for PNG export while debugging a failure).
    public func bitmap() -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<height {
                (bitmap.pixels + row * bitmap.stride).copyMemory(from: base + row * width * 4, byteCount: width * 4)
            }
        }
        return bitmap
    }
}

/// One wl_surface.commit, as the compositor saw it.
public struct CommitRecord: Sendable {
    /// Position in the list of all commits (0 first).
    public var index: Int
    /// Which surface (1 = the first surface created).
    public var surface: Int
    /// The wl_buffer on the surface after this commit: a number given to each buffer the first time
    /// it is attached and kept until the client destroys it; nil when the surface has no buffer.
    public var buffer: Int?
    /// Whether this commit attached a buffer (attach was requested since the last commit).
    public var attached: Bool
    /// The buffer's size in buffer pixels (0x0 without a buffer).
    public var width: Int
    public var height: Int
    public var bufferScale: Int
    /// `damage_buffer` rectangles, in buffer pixels, as sent.
    public var bufferDamage: [PixelRect]
    /// `damage` rectangles, in surface (logical) pixels, as sent.
    public var surfaceDamage: [PixelRect]
    /// The surface's wp_viewport destination after this commit (logical size), if one is set.
    public var viewportDestination: (width: Int, height: Int)?
    /// When the compositor's loop received it.
    public var receivedAt: ContinuousClock.Instant
    /// The whole buffer, when the compositor was asked to capture every commit.
    public var pixels: Image?

    /// Every damaged rectangle in buffer pixels.
    public var damage: [PixelRect] {
        bufferDamage + surfaceDamage.map {
            PixelRect(x: $0.x * bufferScale, y: $0.y * bufferScale, width: $0.width * bufferScale, height: $0.height * bufferScale)
        }
    }
}

/// What the client asked of its xdg_toplevel.
public struct ToplevelInfo: Sendable {
    public var title: String?
    public var appID: String?
    public var minWidth: Int32 = 0
    public var minHeight: Int32 = 0
    public var fullscreenRequested = false
    /// Whether the first buffer after the first configure has been committed.
    public var mapped = false
}

/// A wl_subsurface as the compositor holds it: its surface and parent (surface numbers as in
/// `CommitRecord.surface`), its applied position (the parent's logical px) and what it shows.
public struct SubsurfaceInfo: Sendable, Equatable {
    public var surface: Int
    public var parent: Int
    public var x: Int
    public var y: Int
    public var synchronized: Bool
    /// Commits made while synchronised (the test compositor applies them at once).
    public var synchronizedCommits: Int
    /// The size of its image in buffer pixels (0x0 before its first buffer).
    public var width: Int
    public var height: Int
}

/// Everything the compositor has recorded so far, as one value.
public struct Observation: Sendable {
    public var commits: [CommitRecord] = []
    /// Frame callbacks answered by the `.display` clock, in order (empty with other pacings).
    public var frameDones: [FrameDone] = []
    public var toplevel: ToplevelInfo?
    /// Input devices the client holds now (wl_touch, wl_pointer, wl_keyboard objects not yet released).
    public var touchObjects = 0
    public var pointerObjects = 0
    public var keyboardObjects = 0
    /// Touchpad pinch objects (zwp_pointer_gesture_pinch_v1) the client holds now.
    public var pinchGestureObjects = 0
    /// Subsurfaces that exist now.
    public var subsurfaces: [SubsurfaceInfo] = []
    /// Tablet seats (zwp_tablet_seat_v2) the client holds now.
    public var tabletSeatObjects = 0
    /// Text inputs (zwp_text_input_v3) the client holds now, every request they made in order,
    /// and whether the last commit left one enabled.
    public var textInputObjects = 0
    public var textInputRequests: [TextInputRequest] = []
    public var textInputEnabled = false
    /// Distinct wl_buffers ever attached, and how many still exist.
    public var buffersSeen = 0
    public var buffersAlive = 0
    /// Commits that attached the buffer the compositor was still holding (a client drawing into
    /// a buffer it did not get back).
    public var heldBufferReattached = 0
    /// Configure serials the client acknowledged, in order.
    public var acknowledgedConfigures: [UInt32] = []
    public var pongs = 0
    /// Protocol errors the compositor raised, as messages.
    public var protocolErrors: [String] = []
    /// Clients connected now, and ever.
    public var clientsConnected = 0
    public var clientsEver = 0
}
