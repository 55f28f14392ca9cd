import FolioPixels

/// A client's own protocol log (`WAYLAND_DEBUG=1` on stderr), read back: which requests it
/// sent, grouped by wl_surface.commit. Commits of subsurfaces (the toolbar's) are kept apart, and
/// their buffers are not counted with the window's.
struct WaylandDebugLog {
    /// One commit and the requests that led to it.
    struct Commit {
        var attachedBuffer: String?
        var damage: [PixelRect] = []
    }

    /// wl_buffers created for the window's surfaces (not for subsurfaces).
    var buffersCreated = 0
    /// The commits of the window's surfaces, and those of its subsurfaces.
    var commits: [Commit] = []
    var subsurfaceCommits: [Commit] = []
    /// Requests seen, by name ("wl_surface.attach"), for messages.
    var requestCounts: [String: Int] = [:]

    /// Reads the lines of `text` that are requests (`-> object@id.request(args)`; libwayland 1.23
    /// and newer write `object#id` and name the queue before the arrow).
    init(_ text: String) {
        var pending: [String: Commit] = [:]
        var subsurfaces: Set<String> = []
        var created: Set<String> = []
        var onSubsurfaces: Set<String> = []
        for line in text.split(separator: "\n") {
            guard let arrow = line.range(of: " -> ") else { continue }
            let call = line[arrow.upperBound...]
            guard let at = call.firstIndex(where: { $0 == "@" || $0 == "#" }), let dot = call[at...].firstIndex(of: "."),
                  let open = call.firstIndex(of: "("), let close = call.lastIndex(of: ")"), open > dot
            else { continue }
            let interface = String(call[..<at])
            let object = String(call[..<dot])
            let request = String(call[call.index(after: dot)..<open])
            let arguments = call[call.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            requestCounts["\(interface).\(request)", default: 0] += 1
            switch (interface, request) {
            case ("wl_shm_pool", "create_buffer"):
                if let id = arguments.first?.split(separator: " ").last { created.insert(String(id)) }
            case ("wl_subcompositor", "get_subsurface"):
                if arguments.count >= 2 { subsurfaces.insert(arguments[1]) }
            case ("wl_surface", "attach"):
                pending[object, default: Commit()].attachedBuffer = arguments.first
                if subsurfaces.contains(object), let buffer = arguments.first { onSubsurfaces.insert(buffer) }
            case ("wl_surface", "damage_buffer"), ("wl_surface", "damage"):
                let numbers = arguments.compactMap { Int($0) }
                if numbers.count == 4 {
                    pending[object, default: Commit()].damage.append(PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
                }
            case ("wl_surface", "commit"):
                let commit = pending.removeValue(forKey: object) ?? Commit()
                if subsurfaces.contains(object) { subsurfaceCommits.append(commit) } else { commits.append(commit) }
            default: break
            }
        }
        buffersCreated = created.subtracting(onSubsurfaces).count
    }
}
