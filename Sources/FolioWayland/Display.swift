import CWaylandClient
import CWaylandProtocols
import Glibc

/// The connection to the compositor: connect, flush, read and dispatch, and the errors that
/// end a session. Everything else in FolioWayland sends requests through this display.
public final class Display {
    let display: OpaquePointer

    /// Connects where libwayland looks: `WAYLAND_SOCKET`, else `WAYLAND_DISPLAY` (default `wayland-0`)
    /// under `XDG_RUNTIME_DIR`.
    public init() throws {
        folio_wayland_log_capture()
        guard let display = wl_display_connect(nil) else {
            throw WaylandError.noCompositor(Display.describeTarget(), errno: errno)
        }
        self.display = display
    }

    deinit {
        wl_display_disconnect(display)
    }

    var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Sends queued requests; returns false when the socket is full and POLLOUT must be awaited.
    func flush() throws -> Bool {
        if wl_display_flush(display) >= 0 { return true }
        if errno == EAGAIN { return false }
        throw WaylandError.connectionLost(reason(errno))
    }

    /// Waits until the compositor has answered every request sent so far.
    func roundtrip() throws {
        if wl_display_roundtrip(display) < 0 { throw WaylandError.connectionLost(reason(errno)) }
    }

    /// Runs the handlers of events already read; throws when the connection is broken.
    func dispatchPending() throws {
        if wl_display_dispatch_pending(display) < 0 { throw WaylandError.connectionLost(reason(errno)) }
    }

    /// The protocol error or broken socket that ended the connection, if any.
    func checkError() throws {
        let code = wl_display_get_error(display)
        if code != 0 { throw WaylandError.connectionLost(reason(code)) }
    }

    private func reason(_ code: Int32) -> String {
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            // libwayland logged the compositor's message as "interface@id: error code: message".
            let logged = String(cString: folio_wayland_last_message())
            let message = logged.range(of: "error \(protocolCode): ").map { ": " + logged[$0.upperBound...] } ?? ""
            return "protocol error \(protocolCode) on \(name)#\(id)\(message)"
        }
        return String(cString: strerror(code))
    }

    private static func describeTarget() -> String {
        if let socket = getenv("WAYLAND_SOCKET") { return "WAYLAND_SOCKET=\(String(cString: socket)), which overrides WAYLAND_DISPLAY" }
        if let name = getenv("WAYLAND_DISPLAY") { return "WAYLAND_DISPLAY=\(String(cString: name))" }
        return "WAYLAND_DISPLAY is not set (tried wayland-0)"
    }
}

/// Why the Wayland client stopped; each description is one line for stderr.
public enum WaylandError: Error, CustomStringConvertible {
    case noCompositor(String, errno: Int32)
    case connectionLost(String)
    case missingGlobal(String)
    case system(String)

    public var description: String {
        switch self {
        case let .noCompositor(target, code):
            "no Wayland compositor to connect to (\(target): \(String(cString: strerror(code)))); run Folio in a Wayland session, or use `folio render` / `folio replay` headless"
        case let .connectionLost(reason):
            "the Wayland connection broke (\(reason))"
        case let .missingGlobal(name):
            "the compositor does not offer \(name), which Folio needs"
        case let .system(message):
            message
        }
    }
}
