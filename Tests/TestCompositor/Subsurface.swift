import CTestCompositor
import CWaylandServer

/// wl_subcompositor and wl_subsurface, offered when `TestCompositorOptions.subsurfaces` is set.
/// A subsurface's position is its parent's state: `set_position` takes effect at the parent's
/// next commit, as the protocol says. The test compositor applies every subsurface commit at
/// once, as for a desynchronised one; commits made while a subsurface is synchronised are counted
/// (`SubsurfaceInfo.synchronizedCommits`) so a test can show the client never relies on the
/// caching it does not do.
final class Subsurface: ResourceObject {
    weak var surface: Surface?
    weak var parent: Surface?
    var pendingPosition: (x: Int, y: Int)?
    var position = (x: 0, y: 0)
    /// Subsurfaces start synchronised.
    var synchronized = true
    var synchronizedCommits = 0

    override func destroyed() { compositor.subsurfaceDestroyed(self) }
}

extension Implementations {
    func subsurfaceInit() {
        subcompositor.initialize(to: wl_subcompositor_interface(
            destroy: destroyRequest,
            get_subsurface: { client, resource, id, surfaceResource, parentResource in
                guard let owner = ResourceObject.of(resource)?.compositor else { return }
                guard let surface = Surface.of(surfaceResource), let parent = Surface.of(parentResource),
                      surface !== parent, surface.xdgSurface == nil, surface.subsurface == nil
                else {
                    if let resource {
                        owner.postError(resource, code: WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue,
                                        "wl_subcompositor.get_subsurface: the surface has a role or is its own parent")
                    }
                    return
                }
                guard let created = makeResource(client, "wl_subsurface", version: wl_resource_get_version(resource), id: id)
                else { return }
                let subsurface = Subsurface(resource: created, compositor: owner)
                subsurface.surface = surface
                subsurface.parent = parent
                subsurface.install(owner.implementations.subsurface)
                surface.subsurface = subsurface
                owner.subsurfaceCreated(subsurface)
            }))
        subsurface.initialize(to: wl_subsurface_interface(
            destroy: destroyRequest,
            set_position: { _, resource, x, y in Subsurface.of(resource)?.pendingPosition = (Int(x), Int(y)) },
            place_above: { _, _, _ in },
            place_below: { _, _, _ in },
            set_sync: { _, resource in
                guard let subsurface = Subsurface.of(resource) else { return }
                subsurface.synchronized = true
                subsurface.compositor.subsurfaceChanged(subsurface)
            },
            set_desync: { _, resource in
                guard let subsurface = Subsurface.of(resource) else { return }
                subsurface.synchronized = false
                subsurface.compositor.subsurfaceChanged(subsurface)
            }))
    }

    func subsurfaceDeinit() {
        subcompositor.deallocate()
        subsurface.deallocate()
    }
}
