import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes a private folder `/tmp/PREFIX-XXXXXX` for a test or benchmark and returns its path. The
/// name is read back from the template mkdtemp(3) fills in: the pointer it returns points into
/// the array passed for the call, which is valid only during the call.
public func makeTemporaryDirectory(prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else {
        throw TestCompositorError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
