import ArgumentParser
import FolioRender

extension PageKernels {
    /// The kernels `--kernels NAME` asks for (nil: the fastest); a name this CPU does not run is an error.
    static func named(_ name: String?) throws -> PageKernels {
        guard let name else { return .best }
        guard let named = available.first(where: { $0.name == name }) else {
            throw ValidationError("no page kernels '\(name)' on this CPU (it runs \(available.map(\.name).joined(separator: ", ")))")
        }
        return named
    }
}
