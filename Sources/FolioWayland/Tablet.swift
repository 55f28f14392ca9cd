import CWaylandClient
import CWaylandProtocols
import FolioGeometry
import FolioInput

/// A seat's tablets (tablet-v2): follows the tools the compositor announces and passes their
/// events on. Tablets are kept until removed (proximity names them); pads are not used.
final class TabletSeat {
    private let proxy: OpaquePointer
    private let sink: InputSink
    private var listener: HeapListener<zwp_tablet_seat_v2_listener>?
    private var tools: [PenTool] = []
    private var tablets: [Tablet] = []

    init(manager: OpaquePointer, seat: OpaquePointer, sink: @escaping InputSink) throws {
        guard let proxy = zwp_tablet_manager_v2_get_tablet_seat(manager, seat) else {
            throw WaylandError.system("cannot get the seat's tablets")
        }
        self.proxy = proxy
        self.sink = sink
        let listener = HeapListener(zwp_tablet_seat_v2_listener(
            tablet_added: { data, _, tablet in
                guard let seat: TabletSeat = owner(data), let tablet else { return }
                seat.tablets.append(Tablet(proxy: tablet) { [unowned seat] gone in seat.tablets.removeAll { $0 === gone } })
            },
            tool_added: { data, _, tool in
                guard let seat: TabletSeat = owner(data), let tool else { return }
                seat.tools.append(PenTool(proxy: tool, sink: seat.sink) { [unowned seat] gone in
                    seat.tools.removeAll { $0 === gone }
                })
            },
            pad_added: { _, _, pad in
                if let pad { zwp_tablet_pad_v2_destroy(pad) }
            }))
        self.listener = listener
        zwp_tablet_seat_v2_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        for tool in tools { tool.leave() }
        tools.removeAll()
        tablets.removeAll()
        zwp_tablet_seat_v2_destroy(proxy)
    }
}

/// One tablet device: only its removal matters here.
private final class Tablet {
    let proxy: OpaquePointer
    private let onRemoved: (Tablet) -> Void
    private var listener: HeapListener<zwp_tablet_v2_listener>?

    init(proxy: OpaquePointer, onRemoved: @escaping (Tablet) -> Void) {
        self.proxy = proxy
        self.onRemoved = onRemoved
        let listener = HeapListener(zwp_tablet_v2_listener(
            name: { _, _, _ in }, id: { _, _, _, _ in }, path: { _, _, _ in }, done: { _, _ in },
            removed: { data, _ in
                guard let tablet: Tablet = owner(data) else { return }
                tablet.onRemoved(tablet)
            }))
        self.listener = listener
        zwp_tablet_v2_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit { zwp_tablet_v2_destroy(proxy) }
}

/// One tool (a pen, its eraser end, …). tablet-v2 sends each axis as its own event and groups
/// them with `frame`; this gathers a frame and passes it on as input events at once: proximity,
/// one motion carrying the new pressure (0–65535 scaled to 0–1) and tilt, down, up, buttons.
private final class PenTool {
    private let proxy: OpaquePointer
    private let sink: InputSink
    private let onRemoved: (PenTool) -> Void
    private var listener: HeapListener<zwp_tablet_tool_v2_listener>?
    private var kind = TabletTool.pen
    private var frame = Frame()
    private var position = Point.zero
    private var inProximity = false
    private var isDown = false

    /// What arrived since the last frame.
    private struct Frame {
        var proximityIn = false
        var proximityOut = false
        var down = false
        var up = false
        var moved = false
        var pressure: Double?
        var tilt: PenTilt?
        var buttons: [(Int, Bool)] = []
    }

    init(proxy: OpaquePointer, sink: @escaping InputSink, onRemoved: @escaping (PenTool) -> Void) {
        self.proxy = proxy
        self.sink = sink
        self.onRemoved = onRemoved
        let listener = HeapListener(zwp_tablet_tool_v2_listener(
            type: { data, _, type in
                guard let tool: PenTool = owner(data) else { return }
                tool.kind = PenTool.kind(of: type)
            },
            hardware_serial: { _, _, _, _ in },
            hardware_id_wacom: { _, _, _, _ in },
            capability: { _, _, _ in },
            done: { _, _ in },
            removed: { data, _ in
                guard let tool: PenTool = owner(data) else { return }
                tool.leave()
                tool.onRemoved(tool)
            },
            proximity_in: { data, _, _, _, _ in
                guard let tool: PenTool = owner(data) else { return }
                tool.frame.proximityIn = true
            },
            proximity_out: { data, _ in
                guard let tool: PenTool = owner(data) else { return }
                tool.frame.proximityOut = true
            },
            down: { data, _, _ in
                guard let tool: PenTool = owner(data) else { return }
                tool.frame.down = true
            },
            up: { data, _ in
                guard let tool: PenTool = owner(data) else { return }
                tool.frame.up = true
            },
            motion: { data, _, x, y in
                guard let tool: PenTool = owner(data) else { return }
                tool.position = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
                tool.frame.moved = true
            },
            pressure: { data, _, pressure in
                guard let tool: PenTool = owner(data) else { return }
                // The protocol's range is 0–65535; anything above is taken as the firmest.
                tool.frame.pressure = min(Double(pressure), 65535) / 65535
            },
            distance: { _, _, _ in },
            tilt: { data, _, x, y in
                guard let tool: PenTool = owner(data) else { return }
                tool.frame.tilt = PenTilt(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
            },
            rotation: { _, _, _ in },
            slider: { _, _, _ in },
            wheel: { _, _, _, _ in },
            button: { data, _, _, button, state in
                guard let tool: PenTool = owner(data) else { return }
                tool.frame.buttons.append((Int(button), state == ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED.rawValue))
            },
            frame: { data, _, time in
                guard let tool: PenTool = owner(data) else { return }
                tool.flush(time: time)
            }))
        self.listener = listener
        zwp_tablet_tool_v2_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit { zwp_tablet_tool_v2_destroy(proxy) }

    /// The tool went away (or its seat did): a stroke under way ends as if lifted.
    func leave() {
        guard inProximity else { return }
        frame = Frame()
        frame.proximityOut = true
        flush(time: nil)
    }

    private func flush(time: UInt32?) {
        let f = frame
        frame = Frame()
        // Sent as they are found, in this order (no array per frame); a frame only if any was.
        var sent = false
        func send(_ event: InputEvent) {
            sink(event, time)
            sent = true
        }
        if f.proximityIn, !inProximity {
            inProximity = true
            send(.tabletProximityIn(tool: kind))
        }
        if f.moved || f.pressure != nil || f.tilt != nil {
            send(.tabletMotion(to: position, pressure: f.pressure, tilt: f.tilt))
        }
        if f.down, !isDown {
            isDown = true
            send(.tabletDown)
        }
        for (button, pressed) in f.buttons { send(.tabletButton(button, pressed: pressed)) }
        if (f.up || f.proximityOut), isDown {
            isDown = false
            send(.tabletUp)
        }
        if f.proximityOut, inProximity {
            inProximity = false
            send(.tabletProximityOut)
        }
        if sent { sink(.tabletFrame, time) }
    }

    private static func kind(of type: UInt32) -> TabletTool {
        switch type {
        case ZWP_TABLET_TOOL_V2_TYPE_ERASER.rawValue: .eraser
        case ZWP_TABLET_TOOL_V2_TYPE_PENCIL.rawValue: .pencil
        case ZWP_TABLET_TOOL_V2_TYPE_BRUSH.rawValue: .brush
        case ZWP_TABLET_TOOL_V2_TYPE_AIRBRUSH.rawValue: .airbrush
        default: .pen
        }
    }
}
