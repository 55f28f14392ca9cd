import CPixman

/// A set of pixels as pixman keeps it (a pixman_region32_t): disjoint rectangles in y-x bands,
/// so two changes far apart stay two small rectangles instead of one box spanning both.
/// A value: copies share pixman's storage until one of them changes.
public struct Region: Sendable, Equatable, CustomStringConvertible {
    private var storage: Storage

    /// No pixels.
    public static let empty = Region()

    public init() {
        storage = Storage()
    }

    public init(_ rect: PixelRect) {
        storage = Storage(rect)
    }

    public var isEmpty: Bool { pixman_region32_not_empty(storage.region) == 0 }

    /// The smallest rectangle holding every pixel; `.empty` for none.
    public var bounds: PixelRect {
        guard !isEmpty, let box = pixman_region32_extents(storage.region)?.pointee else { return .empty }
        return PixelRect(box)
    }

    /// The disjoint rectangles that make up the region, top to bottom, left to right.
    public var rectangles: [PixelRect] {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(storage.region, &count), count > 0 else { return [] }
        return UnsafeBufferPointer(start: boxes, count: Int(count)).map(PixelRect.init)
    }

    /// The number of pixels in the region.
    public var area: Int { rectangles.reduce(0) { $0 + $1.area } }

    /// Whether every pixel of `rect` is in the region (an empty rect always is).
    public func contains(_ rect: PixelRect) -> Bool {
        guard !rect.isEmpty else { return true }
        var box = pixman_box32_t(rect)
        return pixman_region32_contains_rectangle(storage.region, &box) == PIXMAN_REGION_IN
    }

    public mutating func formUnion(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        let target = uniqueStorage()
        Storage.check(pixman_region32_union_rect(target.region, target.region, Int32(clamping: rect.x), Int32(clamping: rect.y),
                                                 UInt32(clamping: rect.width), UInt32(clamping: rect.height)))
    }

    public mutating func formUnion(_ other: Region) {
        guard !other.isEmpty else { return }
        let target = uniqueStorage()
        Storage.check(pixman_region32_union(target.region, target.region, other.storage.region))
    }

    public func union(_ rect: PixelRect) -> Region {
        var result = self
        result.formUnion(rect)
        return result
    }

    public func union(_ other: Region) -> Region {
        var result = self
        result.formUnion(other)
        return result
    }

    /// The pixels of the region inside `rect`.
    public func intersection(_ rect: PixelRect) -> Region {
        guard !rect.isEmpty, !isEmpty else { return Region() }
        let result = Storage()
        Storage.check(pixman_region32_intersect_rect(result.region, storage.region, Int32(clamping: rect.x), Int32(clamping: rect.y),
                                                     UInt32(clamping: rect.width), UInt32(clamping: rect.height)))
        return Region(storage: result)
    }

    public static func == (lhs: Region, rhs: Region) -> Bool {
        lhs.storage === rhs.storage || pixman_region32_equal(lhs.storage.region, rhs.storage.region) != 0
    }

    public var description: String { "[" + rectangles.map(\.description).joined(separator: ", ") + "]" }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The storage, copied first if another Region shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        return storage
    }

    /// Owns one pixman region at a fixed address. Mutated only while uniquely referenced (see
    /// `uniqueStorage`), and pixman only reads a shared one, so sharing it across threads is safe.
    private final class Storage: @unchecked Sendable {
        let region = UnsafeMutablePointer<pixman_region32_t>.allocate(capacity: 1)

        init() {
            pixman_region32_init(region)
        }

        init(_ rect: PixelRect) {
            if rect.isEmpty {
                pixman_region32_init(region)
            } else {
                pixman_region32_init_rect(region, Int32(clamping: rect.x), Int32(clamping: rect.y),
                                          UInt32(clamping: rect.width), UInt32(clamping: rect.height))
            }
        }

        init(copying other: Storage) {
            pixman_region32_init(region)
            Storage.check(pixman_region32_copy(region, other.region))
        }

        deinit {
            pixman_region32_fini(region)
            region.deallocate()
        }

        /// pixman reports only allocation failure, after which the region is unusable.
        static func check(_ ok: pixman_bool_t) {
            if ok == 0 { fatalError("out of memory for a pixman region") }
        }
    }
}

extension PixelRect {
    init(_ box: pixman_box32_t) {
        self.init(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1))
    }
}

extension pixman_box32_t {
    init(_ rect: PixelRect) {
        self.init(x1: Int32(clamping: rect.x), y1: Int32(clamping: rect.y),
                  x2: Int32(clamping: rect.maxX), y2: Int32(clamping: rect.maxY))
    }
}
