import CWaylandClient
import CWaylandProtocols
import FolioPixels
import Glibc

/// The pool's shared memory, unmapped when the pool and every bitmap over it are gone: a frame
/// kept after a resize (the newest, read back for a screenshot) never points at unmapped pages.
private final class SharedMapping {
    let memory: UnsafeMutableRawPointer
    let byteCount: Int

    init(memory: UnsafeMutableRawPointer, byteCount: Int) {
        self.memory = memory
        self.byteCount = byteCount
    }

    deinit {
        munmap(memory, byteCount)
    }
}

/// Buffers of one size in one wl_shm_pool over a sealed memfd, reused as the compositor releases
/// them. Made once per size and scale; a frame never allocates. Room for `capacity` buffers is
/// reserved up front (the kernel commits pages only when written), buffers are made as needed.
/// Frames are drawn straight into them; `chain` says which are busy and what each lacks.
final class BufferPool {
    let width: Int
    let height: Int
    let stride: Int
    private let pool: OpaquePointer
    private let mapping: SharedMapping
    private(set) var chain: SwapChain
    /// The wl_buffer of each buffer in `chain`, and its pixels.
    private var proxies: [OpaquePointer] = []
    private(set) var bitmaps: [Bitmap] = []
    private let listener: HeapListener<wl_buffer_listener>
    /// A buffer came back from the compositor (a frame may have been waiting for one).
    var onRelease: (() -> Void)?

    init(shm: OpaquePointer, width: Int, height: Int, capacity: Int = 3) throws {
        self.width = width
        self.height = height
        chain = SwapChain(width: width, height: height, capacity: capacity)
        stride = width * 4
        let byteCount = stride * height * capacity
        let fd = folio_memfd_create("folio-buffers")
        guard fd >= 0 else { throw WaylandError.system("cannot create shared memory: \(String(cString: strerror(errno)))") }
        defer { close(fd) }  // the pool holds its own reference once created
        guard ftruncate(fd, off_t(byteCount)) == 0 else {
            throw WaylandError.system("cannot size \(byteCount) bytes of shared memory: \(String(cString: strerror(errno)))")
        }
        // The compositor maps this memory: it must never shrink under it.
        guard folio_memfd_seal_shrink(fd) == 0 else {
            throw WaylandError.system("cannot seal shared memory: \(String(cString: strerror(errno)))")
        }
        let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw WaylandError.system("cannot map shared memory: \(String(cString: strerror(errno)))")
        }
        guard let pool = wl_shm_create_pool(shm, fd, Int32(byteCount)) else {
            munmap(mapped, byteCount)
            throw WaylandError.system("cannot create a wl_shm_pool")
        }
        mapping = SharedMapping(memory: mapped, byteCount: byteCount)
        self.pool = pool
        listener = HeapListener(wl_buffer_listener(release: { data, proxy in
            guard let pool: BufferPool = owner(data) else { return }
            pool.released(proxy)
        }))
    }

    deinit {
        for proxy in proxies { wl_buffer_destroy(proxy) }
        wl_shm_pool_destroy(pool)
    }

    /// Whether `acquire` would succeed.
    var canAcquire: Bool { chain.canAcquire }

    /// A buffer the compositor is not reading (its index in `chain`), made if none is free and
    /// there is room; nil when every buffer is busy (the frame waits for a release).
    func acquire() -> Int? {
        var next = chain
        guard let index = next.acquire() else { return nil }
        if index == proxies.count {
            let offset = index * stride * height
            guard let proxy = wl_shm_pool_create_buffer(pool, Int32(offset), Int32(width), Int32(height), Int32(stride),
                                                        WL_SHM_FORMAT_ARGB8888.rawValue) else { return nil }
            wl_buffer_add_listener(proxy, listener.pointer, userData(self))
            proxies.append(proxy)
            bitmaps.append(Bitmap(wrapping: mapping.memory + offset, width: width, height: height, stride: stride, owner: mapping))
        }
        chain = next
        return index
    }

    /// The wl_buffer of buffer `index`, now holding a frame that changed `damage`: the compositor
    /// holds it until it releases it, and every other buffer lacks `damage`.
    func commit(_ index: Int, damage: Region) -> OpaquePointer {
        chain.committed(index, damage: damage)
        return proxies[index]
    }

    private func released(_ proxy: OpaquePointer?) {
        guard let index = proxies.firstIndex(where: { $0 == proxy }) else { return }
        chain.released(index)
        onRelease?()
    }
}
