import CWaylandClient

/// One monitor (wl_output): Folio only needs its integer scale, to pick the buffer scale of
/// the outputs its surface is on.
final class Output {
    let proxy: OpaquePointer
    /// The registry name, to forget the output when it is unplugged.
    let name: UInt32
    private let version: UInt32
    private(set) var scale: Int = 1
    private var pendingScale: Int = 1
    private var listener: HeapListener<wl_output_listener>?
    /// The scale changed (applied at `done`).
    var onScaleChange: (() -> Void)?

    init(proxy: OpaquePointer, name: UInt32, version: UInt32) {
        self.proxy = proxy
        self.name = name
        self.version = version
        let listener = HeapListener(wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { _, _, _, _, _, _ in },
            done: { data, _ in
                guard let output: Output = owner(data) else { return }
                output.apply()
            },
            scale: { data, _, factor in
                guard let output: Output = owner(data) else { return }
                output.pendingScale = max(1, Int(factor))
                // Before version 2 there is no `done`: apply at once.
                if output.version < 2 { output.apply() }
            },
            name: { _, _, _ in },
            description: { _, _, _ in }))
        self.listener = listener
        wl_output_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    private func apply() {
        guard pendingScale != scale else { return }
        scale = pendingScale
        onScaleChange?()
    }
}
