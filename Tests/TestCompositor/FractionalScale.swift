import CTestCompositor
import CWaylandServer

/// wp_viewporter and wp_fractional_scale_v1, offered when `TestCompositorOptions.fractionalScale`
/// is set: each surface's fractional-scale object is told that preferred scale (N/120) at once
/// and again whenever a test changes it; a viewport's destination is double-buffered state of
/// its surface, applied at commit and recorded with it.
final class Viewport: ResourceObject {
    weak var surface: Surface?
}

final class FractionalScale: ResourceObject {
    override func destroyed() { compositor.fractionalScaleDestroyed(self) }
}

extension Implementations {
    func fractionalScaleInit() {
        viewporter.initialize(to: wp_viewporter_interface(
            destroy: destroyRequest,
            get_viewport: { client, resource, id, surfaceResource in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "wp_viewport", version: wl_resource_get_version(resource), id: id)
                else { return }
                let viewport = Viewport(resource: created, compositor: owner)
                viewport.surface = Surface.of(surfaceResource)
                viewport.install(owner.implementations.viewport)
            }))
        viewport.initialize(to: wp_viewport_interface(
            destroy: destroyRequest,
            set_source: { _, _, _, _, _, _ in },
            set_destination: { _, resource, width, height in
                Viewport.of(resource)?.surface?.setDestination(width > 0 && height > 0 ? (Int(width), Int(height)) : nil)
            }))
        fractionalScaleManager.initialize(to: wp_fractional_scale_manager_v1_interface(
            destroy: destroyRequest,
            get_fractional_scale: { client, resource, id, _ in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "wp_fractional_scale_v1", version: wl_resource_get_version(resource), id: id)
                else { return }
                let object = FractionalScale(resource: created, compositor: owner)
                object.install(owner.implementations.fractionalScale)
                owner.fractionalScaleCreated(object)
            }))
        fractionalScale.initialize(to: wp_fractional_scale_v1_interface(destroy: destroyRequest))
    }

    func fractionalScaleDeinit() {
        viewporter.deallocate()
        viewport.deallocate()
        fractionalScaleManager.deallocate()
        fractionalScale.deallocate()
    }
}
