import ArgumentParser
import FolioBench
import TestCompositor

/// `folio-latency-bench`: input-to-buffer latency of a built `folio` under the test compositor,
/// printed as `folio bench` prints its figures, beside the memory-copy floor of the same run.
/// Never installed: it links libwayland-server, which the shipped `folio` must not.
@main
struct LatencyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio-latency-bench",
        abstract: "Measure folio's input-to-buffer latency under a test compositor, beside the memory-bandwidth floor of the same run.")

    @Flag(help: "Print {\"results\": [...]} as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Run only the benchmarks whose name starts with this (\(LatencyBenchmarks.names.joined(separator: ", ")); the floor always runs).",
                               valueName: "name"))
    var only: String?

    @Option(help: ArgumentHelp("The folio binary to measure (default: $FOLIO_BINARY, else the folio built beside this program).",
                               valueName: "path"))
    var folio: String?

    func validate() throws {
        if let only, !LatencyBenchmarks.names.contains(where: { $0.hasPrefix(only) }) {
            throw ValidationError("no latency benchmark starts with '\(only)' (they are \(LatencyBenchmarks.names.joined(separator: ", ")))")
        }
    }

    func run() throws {
        let executable = try folio ?? ClientProcess.folioExecutable()
        let floor = memcpyFloor(width: Int(LatencyBenchmarks.width), height: Int(LatencyBenchmarks.height))
        let figures = try LatencyBenchmarks.run(executable) { name in only.map { name.hasPrefix($0) } ?? true }
        report([floor] + figures, json: json)
    }
}
