import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client program under test: started with a chosen environment, its output captured.
public final class ClientProcess: @unchecked Sendable {
    private let process = Process()
    private let outputLock = NSCondition()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var openStreams = 2
    private var exited = false

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            outputLock.lock()
            exited = true
            outputLock.broadcast()
            outputLock.unlock()
        }
        try process.run()
        collect(out.fileHandleForReading, isError: false)
        collect(err.fileHandleForReading, isError: true)
    }

    /// Starts `executable` with exactly `environment`, outside any compositor.
    public static func start(_ executable: String, arguments: [String] = [], environment: [String: String]) throws -> ClientProcess {
        try ClientProcess(executable: executable, arguments: arguments, environment: environment)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }

    private func collect(_ handle: FileHandle, isError: Bool) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                outputLock.lock()
                if chunk.isEmpty { openStreams -= 1 } else if isError { stderrData.append(chunk) } else { stdoutData.append(chunk) }
                outputLock.broadcast()
                outputLock.unlock()
                if chunk.isEmpty { return }
            }
        }.start()
    }

    public var processIdentifier: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// What the client wrote to stderr so far.
    public var standardError: String {
        outputLock.lock()
        defer { outputLock.unlock() }
        return String(decoding: stderrData, as: UTF8.self)
    }

    public var standardOutput: String {
        outputLock.lock()
        defer { outputLock.unlock() }
        return String(decoding: stdoutData, as: UTF8.self)
    }

    /// Waits for the client to exit and its output to be read; its exit status, or nil if it
    /// was killed by a signal. Throws after `timeout` (and kills the client).
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(20)) throws -> Int32? {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        outputLock.lock()
        while !(exited && openStreams == 0) {
            if !outputLock.wait(until: deadline) {
                outputLock.unlock()
                terminate()
                throw ClientProcessError("\(process.executableURL?.lastPathComponent ?? "client") did not exit within \(timeout); stderr:\n\(standardError)")
            }
        }
        outputLock.unlock()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// The signal that ended the client, if one did.
    public var terminatingSignal: Int32? {
        process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
    }

    /// Ends the client now.
    public func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The `folio` binary built beside the running program (a test bundle or
    /// `folio-latency-bench`); `FOLIO_BINARY` overrides.
    public static func folioExecutable() throws -> String {
        if let override = ProcessInfo.processInfo.environment["FOLIO_BINARY"] { return override }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let beside = me.deletingLastPathComponent().appendingPathComponent("folio").path
        guard FileManager.default.isExecutableFile(atPath: beside) else {
            throw ClientProcessError("no folio binary at \(beside) (run `swift build` first, or set FOLIO_BINARY)")
        }
        return beside
    }
}

public struct ClientProcessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
