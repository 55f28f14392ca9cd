import CTestCompositor
import CWaylandServer

/// One touchpad pinch event (pointer-gestures-unstable-v1), sent to the pointer's focus as a
/// compositor sends what libinput reports. `scale` is relative to the fingers' distance at begin.
public enum PinchGestureEvent: Sendable {
    case begin(fingers: UInt32)
    case update(dx: Double, dy: Double, scale: Double, rotation: Double)
    case end(cancelled: Bool)
}

/// A zwp_pointer_gesture_pinch_v1 the client holds, for one of its wl_pointers.
final class PinchGesture: ResourceObject {
    override func destroyed() { compositor.pinchGestureReleased(self) }
}

extension Implementations {
    func pointerGesturesInit() {
        pointerGestures.initialize(to: zwp_pointer_gestures_v1_interface(
            get_swipe_gesture: { client, resource, id, _ in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "zwp_pointer_gesture_swipe_v1", version: wl_resource_get_version(resource), id: id)
                else { return }
                InertObject(resource: created, compositor: owner).install(owner.implementations.swipeGesture)
            },
            get_pinch_gesture: { client, resource, id, _ in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "zwp_pointer_gesture_pinch_v1", version: wl_resource_get_version(resource), id: id)
                else { return }
                owner.pinchGestureCreated(created)
            },
            release: destroyRequest,
            get_hold_gesture: { client, resource, id, _ in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "zwp_pointer_gesture_hold_v1", version: wl_resource_get_version(resource), id: id)
                else { return }
                InertObject(resource: created, compositor: owner).install(owner.implementations.holdGesture)
            }))
        swipeGesture.initialize(to: zwp_pointer_gesture_swipe_v1_interface(destroy: destroyRequest))
        pinchGesture.initialize(to: zwp_pointer_gesture_pinch_v1_interface(destroy: destroyRequest))
        holdGesture.initialize(to: zwp_pointer_gesture_hold_v1_interface(destroy: destroyRequest))
    }

    func pointerGesturesDeinit() {
        pointerGestures.deallocate()
        swipeGesture.deallocate()
        pinchGesture.deallocate()
        holdGesture.deallocate()
    }
}
