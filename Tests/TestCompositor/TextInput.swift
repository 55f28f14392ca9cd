import CTestCompositor
import CWaylandServer

/// A request a client made on its zwp_text_input_v3, as the compositor received it.
public enum TextInputRequest: Sendable, Equatable {
    case enable
    case disable
    case contentType(hint: UInt32, purpose: UInt32)
    case surroundingText(String)
    case cursorRectangle(x: Int32, y: Int32, width: Int32, height: Int32)
    case commit
}

/// One event an input method sends through zwp_text_input_v3, as GNOME's and KDE's on-screen
/// keyboards do; `done` carries the number of commits the client made, as the protocol asks.
public enum TextInputEvent: Sendable {
    case preedit(String?, cursorBegin: Int32, cursorEnd: Int32)
    case commitString(String?)
    case deleteSurroundingText(before: UInt32, after: UInt32)
    case done
}

/// A zwp_text_input_v3 the client holds. Enabling is double-buffered: `enable` and `disable`
/// take effect at the client's `commit`, which `done` counts.
final class TextInputObject: ResourceObject {
    /// The surface it was told it has the text focus on (`enter`), if any.
    weak var entered: Surface?
    var pendingEnabled: Bool?
    var enabled = false
    var commits: UInt32 = 0
    override func destroyed() { compositor.textInputGone(self) }
}

/// The request tables of the text-input objects (stable addresses, as libwayland keeps them).
final class TextInputImplementations {
    let manager = UnsafeMutablePointer<zwp_text_input_manager_v3_interface>.allocate(capacity: 1)
    let textInput = UnsafeMutablePointer<zwp_text_input_v3_interface>.allocate(capacity: 1)

    init() {
        manager.initialize(to: zwp_text_input_manager_v3_interface(
            destroy: destroyRequest,
            get_text_input: { client, resource, id, _ in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "zwp_text_input_v3", version: wl_resource_get_version(resource), id: id)
                else { return }
                owner.textInputCreated(created)
            }))
        textInput.initialize(to: zwp_text_input_v3_interface(
            destroy: destroyRequest,
            enable: { _, resource in TextInputObject.of(resource)?.received(.enable) },
            disable: { _, resource in TextInputObject.of(resource)?.received(.disable) },
            set_surrounding_text: { _, resource, text, _, _ in
                TextInputObject.of(resource)?.received(.surroundingText(text.map { String(cString: $0) } ?? ""))
            },
            set_text_change_cause: { _, _, _ in },
            set_content_type: { _, resource, hint, purpose in
                TextInputObject.of(resource)?.received(.contentType(hint: hint, purpose: purpose))
            },
            set_cursor_rectangle: { _, resource, x, y, width, height in
                TextInputObject.of(resource)?.received(.cursorRectangle(x: x, y: y, width: width, height: height))
            },
            commit: { _, resource in TextInputObject.of(resource)?.received(.commit) }))
    }

    deinit {
        manager.deallocate()
        textInput.deallocate()
    }
}

extension TextInputObject {
    /// Records `request`, applying the pending state at a commit.
    func received(_ request: TextInputRequest) {
        switch request {
        case .enable: pendingEnabled = true
        case .disable: pendingEnabled = false
        case .commit:
            commits &+= 1
            if let pending = pendingEnabled { enabled = pending }
            pendingEnabled = nil
        default: break
        }
        let enabled = self.enabled
        compositor.record { observation in
            observation.textInputRequests.append(request)
            observation.textInputEnabled = enabled
        }
    }
}

extension Server {
    func textInputCreated(_ resource: Resource) {
        let input = TextInputObject(resource: resource, compositor: self)
        input.install(textInputImplementations.textInput)
        textInputs.append(input)
        let count = textInputs.count
        record { $0.textInputObjects = count }
        if let surface = focusedSurface { enterTextInputs(surface) }
    }

    func textInputGone(_ input: TextInputObject) {
        textInputs.removeAll { $0 === input }
        let count = textInputs.count
        record { $0.textInputObjects = count }
    }

    /// `surface` has the keyboard focus: its client's text inputs are told they have the text
    /// focus there, as GNOME and KDE do.
    func enterTextInputs(_ surface: Surface) {
        for input in textInputs where input.client == surface.client && input.entered !== surface {
            input.entered = surface
            zwp_text_input_v3_send_enter(input.resource, surface.resource)
        }
        wl_display_flush_clients(display)
    }

    /// Sends input-method events to the text inputs that have the text focus; false when none has.
    func sendTextInput(_ events: [TextInputEvent]) -> Bool {
        let inputs = textInputs.filter { $0.entered != nil }
        guard !inputs.isEmpty else { return false }
        for event in events {
            for input in inputs {
                switch event {
                case let .preedit(text, begin, end): zwp_text_input_v3_send_preedit_string(input.resource, text, begin, end)
                case let .commitString(text): zwp_text_input_v3_send_commit_string(input.resource, text)
                case let .deleteSurroundingText(before, after): zwp_text_input_v3_send_delete_surrounding_text(input.resource, before, after)
                case .done: zwp_text_input_v3_send_done(input.resource, input.commits)
                }
            }
        }
        wl_display_flush_clients(display)
        return true
    }
}
