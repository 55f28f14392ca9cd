import FolioPixels

/// A client's own protocol log (`WAYLAND_DEBUG=1` on stderr), read back: which requests it
/// sent, grouped by wl_surface.commit.
struct WaylandDebugLog {
    /// One commit and the requests that led to it.
    struct Commit {
        var attachedBuffer: String?
        var damage: [PixelRect] = []
    }

    var buffersCreated = 0
    var commits: [Commit] = []
    /// Requests seen, by name ("wl_surface.attach"), for messages.
    var requestCounts: [String: Int] = [:]

    /// Reads the lines of `text` that are requests (`-> object@id.request(args)`).
    init(_ text: String) {
        var pending = Commit()
        for line in text.split(separator: "\n") {
            guard let arrow = line.range(of: " -> ") else { continue }
            let call = line[arrow.upperBound...]
            guard let at = call.firstIndex(of: "@"), let dot = call[at...].firstIndex(of: "."),
                  let open = call.firstIndex(of: "("), let close = call.lastIndex(of: ")"), open > dot
            else { continue }
            let interface = String(call[..<at])
            let request = String(call[call.index(after: dot)..<open])
            let arguments = call[call.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            requestCounts["\(interface).\(request)", default: 0] += 1
            switch (interface, request) {
            case ("wl_shm_pool", "create_buffer"): buffersCreated += 1
            case ("wl_surface", "attach"): pending.attachedBuffer = arguments.first
            case ("wl_surface", "damage_buffer"), ("wl_surface", "damage"):
                let numbers = arguments.compactMap { Int($0) }
                if numbers.count == 4 { pending.damage.append(PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])) }
            case ("wl_surface", "commit"):
                commits.append(pending)
                pending = Commit()
            default: break
            }
        }
    }
}
