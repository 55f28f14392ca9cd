import FolioCore

/// The app in a Wayland session: wires FolioWayland's window and seat to a `Session`.
struct LiveApp {
    var options: LiveOptions

    func run() throws {
        throw FolioError("the Wayland client is not built yet")
    }
}
