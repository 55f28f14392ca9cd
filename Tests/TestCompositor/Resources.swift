import CTestCompositor
import CWaylandServer

/// The Swift object behind one wl_resource. The resource holds a +1 reference in its user data,
/// given back by its destroy handler, so an object lives exactly as long as its resource.
/// Every method runs on the compositor's loop thread.
class ResourceObject {
    let resource: Resource
    unowned let compositor: Server

    init(resource: Resource, compositor: Server) {
        self.resource = resource
        self.compositor = compositor
    }

    /// Called once, when the resource goes away (destroy request, client gone, display destroyed).
    func destroyed() {}

    var client: OpaquePointer? { wl_resource_get_client(resource) }
    var version: Int32 { wl_resource_get_version(resource) }

    /// Installs `implementation` (a stable table of request handlers) and this object as user data.
    func install(_ implementation: UnsafeRawPointer?) {
        wl_resource_set_implementation(resource, implementation, Unmanaged.passRetained(self).toOpaque()) { resource in
            guard let resource, let data = wl_resource_get_user_data(resource) else { return }
            Unmanaged<ResourceObject>.fromOpaque(data).takeRetainedValue().destroyed()
        }
    }

    /// The object behind `resource`, when it is one of ours and of this type.
    static func of(_ resource: Resource?) -> Self? {
        guard let resource, let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<ResourceObject>.fromOpaque(data).takeUnretainedValue() as? Self
    }
}

/// A protocol interface descriptor's real address (wl_resource_create keeps it).
func interface(_ name: String) -> UnsafePointer<wl_interface> {
    guard let found = folio_interface(name) else { fatalError("CWaylandProtocols has no interface named \(name)") }
    return found
}

/// A new resource for a request's `new_id`, at the version of the object that made it;
/// nil (after telling the client) when out of memory.
func makeResource(_ client: OpaquePointer?, _ name: String, version: Int32, id: UInt32) -> Resource? {
    guard let resource = wl_resource_create(client, interface(name), version, id) else {
        wl_client_post_no_memory(client)
        return nil
    }
    return resource
}

/// A resource with no requests of its own but `destroy` (wl_region, xdg_positioner, ...).
final class InertObject: ResourceObject {}

/// The handler every `destroy` request shares.
let destroyRequest: @convention(c) (OpaquePointer?, Resource?) -> Void = { _, resource in
    wl_resource_destroy(resource)
}

/// A server-side protocol object (libwayland-server's `struct wl_resource *`).
typealias Resource = UnsafeMutablePointer<wl_resource>
