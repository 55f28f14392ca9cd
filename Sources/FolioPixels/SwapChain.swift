/// The bookkeeping of a few frame buffers of one size that a compositor reads in turn: which are
/// busy (committed and not yet released: never to be written), and what each lacks relative to
/// the newest frame — the union of the damage of every frame drawn since it was last drawn into,
/// everything for a buffer never drawn. A frame is drawn straight into a free buffer after the
/// pixels it lacks are brought up to date, so only those pixels are copied, never a whole frame.
/// A value: the memory is the owner's (a shm pool, the simulated compositor's bitmaps).
public struct SwapChain: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The most buffers the chain makes.
    public let capacity: Int
    private var busy: [Bool] = []
    private var missing: [Region] = []

    /// A chain of no buffers yet; they are made as `acquire` needs them, up to `capacity`.
    public init(width: Int, height: Int, capacity: Int) {
        precondition(capacity > 0, "a swap chain needs room for a buffer")
        self.width = width
        self.height = height
        self.capacity = capacity
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Buffers made so far.
    public var count: Int { busy.count }

    /// Whether `acquire` would give a buffer.
    public var canAcquire: Bool { count < capacity || busy.contains(false) }

    /// The index of a free buffer to draw the next frame into: the free one lacking the fewest
    /// pixels, or a new one (lacking everything; the owner makes its memory) when none is free and
    /// there is room. Nil when every buffer is busy: the frame waits for a release.
    public mutating func acquire() -> Int? {
        let free = busy.indices.filter { !busy[$0] }
        if let best = free.min(by: { missing[$0].area < missing[$1].area }) { return best }
        guard count < capacity else { return nil }
        busy.append(false)
        missing.append(Region(bounds))
        return count - 1
    }

    /// The pixels buffer `index` lacks relative to the newest frame.
    public func missing(_ index: Int) -> Region { missing[index] }

    public func isBusy(_ index: Int) -> Bool { busy[index] }

    /// A frame changing `damage` was drawn into buffer `index` (brought up to date first) and
    /// committed: it lacks nothing and the compositor holds it; every other buffer lacks `damage`.
    public mutating func committed(_ index: Int, damage: Region) {
        precondition(!busy[index], "a frame drawn into a buffer the compositor holds")
        let changed = damage.intersection(bounds)
        for other in missing.indices where other != index { missing[other].formUnion(changed) }
        missing[index] = Region.empty
        busy[index] = true
    }

    /// The compositor gave buffer `index` back: it may be drawn into again.
    public mutating func released(_ index: Int) {
        busy[index] = false
    }
}
