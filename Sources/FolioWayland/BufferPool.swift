import CWaylandClient
import CWaylandProtocols
import FolioPixels
import Glibc

/// One wl_buffer in the pool: its pixels as a Bitmap, whether the compositor still reads it,
/// and the pixels it lacks (the damage of frames it did not carry).
final class ShmBuffer {
    let proxy: OpaquePointer
    let bitmap: Bitmap
    /// Attached and not yet released by the compositor: must not be written.
    var busy = false
    /// Buffer pixels that differ from the latest frame; a new buffer lacks everything.
    var missing: Region

    init(proxy: OpaquePointer, bitmap: Bitmap) {
        self.proxy = proxy
        self.bitmap = bitmap
        missing = Region(bitmap.bounds)
    }

    deinit {
        wl_buffer_destroy(proxy)
    }
}

/// Buffers of one size in one wl_shm_pool over a sealed memfd, reused as the compositor releases
/// them. Made once per size and scale; a frame never allocates. Room for `capacity` buffers is
/// reserved up front (the kernel commits pages only when written), buffers are made as needed.
final class BufferPool {
    let width: Int
    let height: Int
    let stride: Int
    private let capacity: Int
    private let pool: OpaquePointer
    private let memory: UnsafeMutableRawPointer
    private let byteCount: Int
    private(set) var buffers: [ShmBuffer] = []
    private let listener: HeapListener<wl_buffer_listener>
    /// A buffer came back from the compositor (a frame may have been waiting for one).
    var onRelease: (() -> Void)?

    init(shm: OpaquePointer, width: Int, height: Int, capacity: Int = 3) throws {
        self.width = width
        self.height = height
        self.capacity = capacity
        stride = width * 4
        byteCount = stride * height * capacity
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
        memory = mapped
        self.pool = pool
        listener = HeapListener(wl_buffer_listener(release: { data, proxy in
            guard let pool: BufferPool = owner(data) else { return }
            pool.released(proxy)
        }))
    }

    deinit {
        buffers.removeAll()
        wl_shm_pool_destroy(pool)
        munmap(memory, byteCount)
    }

    /// Whether `acquire` would succeed.
    var canAcquire: Bool { buffers.count < capacity || buffers.contains { !$0.busy } }

    /// A buffer the compositor is not reading, made if none is free and there is room; nil when
    /// every buffer is busy (the frame waits for a release).
    func acquire() -> ShmBuffer? {
        if let free = buffers.first(where: { !$0.busy }) { return free }
        guard buffers.count < capacity else { return nil }
        let offset = buffers.count * stride * height
        guard let proxy = wl_shm_pool_create_buffer(pool, Int32(offset), Int32(width), Int32(height), Int32(stride),
                                                    WL_SHM_FORMAT_ARGB8888.rawValue) else { return nil }
        wl_buffer_add_listener(proxy, listener.pointer, userData(self))
        let buffer = ShmBuffer(proxy: proxy, bitmap: Bitmap(wrapping: memory + offset, width: width, height: height, stride: stride))
        buffers.append(buffer)
        return buffer
    }

    /// Records that the frame about to be committed changes `damage`: every buffer lacks it now.
    func frameChanged(_ damage: Region) {
        for buffer in buffers { buffer.missing.formUnion(damage) }
    }

    private func released(_ proxy: OpaquePointer?) {
        guard let buffer = buffers.first(where: { $0.proxy == proxy }) else { return }
        buffer.busy = false
        onRelease?()
    }
}
