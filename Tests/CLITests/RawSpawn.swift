import Foundation
import XCTest

/// Runs the built `folio` with its arguments and environment given as bytes (Foundation's
/// `Process` takes only valid UTF-8), in `folder`, its output going to files there. One that
/// runs past `timeout` seconds is killed: a refusal that regresses into a wait fails the test.
func runFolio(_ arguments: [[UInt8]], environment: [[UInt8]], in folder: URL, timeout: Double = 60) throws -> CLITests.Result {
    let out = folder.appendingPathComponent(".stdout-\(UUID().uuidString)").path
    let err = folder.appendingPathComponent(".stderr-\(UUID().uuidString)").path
    // Standard input is an empty file of its own: no device node is touched.
    let input = folder.appendingPathComponent(".stdin-\(UUID().uuidString)").path
    guard FileManager.default.createFile(atPath: input, contents: Data()) else { throw CocoaError(.fileWriteUnknown) }
    defer { unlink(out); unlink(err); unlink(input) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
        throw XCTSkip("this C library cannot start a program in another folder")
    }
    // Not in Swift's Glibc module; glibc has had it since 2.29.
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, folder.path)
    let binary = CLITests.folio.path
    var argv: [UnsafeMutablePointer<CChar>?] = ([Array(binary.utf8)] + arguments).map(duplicate) + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map(duplicate) + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, binary, &actions, nil, &argv, &envp)
    guard spawned == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(spawned)) }
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(timeout)
    while waitpid(pid, &status, WNOHANG) == 0 {
        if Date() > deadline {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            break
        }
        usleep(10_000)
    }
    let exited = status & 0x7f == 0
    return CLITests.Result(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                           stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                           stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
}

/// A C string holding `bytes`, for an argv or envp; freed by the caller.
private func duplicate(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
    let copy = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self)
    bytes.withUnsafeBytes { source in
        guard let copy, let base = source.baseAddress else { return }
        memcpy(copy, base, bytes.count)
    }
    copy?[bytes.count] = 0
    return copy
}
