import ArgumentParser
import FolioBench
import FolioGeometry
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

    @Option(help: ArgumentHelp("The window's buffer scale (1 to 8, fractions such as 1.5 too); repeat to compare several in one run (default 1).",
                               valueName: "N"))
    var scale: [Double] = []

    /// `scale` in 1/120 steps, as the compositor would send it.
    private var scales: [BufferScale] {
        scale.isEmpty ? [1] : scale.compactMap { BufferScale(nearest: $0) }
    }

    func validate() throws {
        let side = Int(max(LatencyBenchmarks.width, LatencyBenchmarks.height))
        for value in scale {
            guard let s = BufferScale(nearest: value), SurfaceLimits.scales.contains(s), s.pixels(side) <= SurfaceLimits.maximumBufferSide else {
                throw ValidationError("--scale \(value): a number from 1 to 8 whose 1920x1200 buffers stay within \(SurfaceLimits.maximumBufferSide) px a side")
            }
        }
        if let only, !LatencyBenchmarks.names.contains(where: { $0.hasPrefix(only) }) {
            throw ValidationError("no latency benchmark starts with '\(only)' (they are \(LatencyBenchmarks.names.joined(separator: ", ")))")
        }
    }

    func run() throws {
        let executable = try folio ?? ClientProcess.folioExecutable()
        var results: [BenchResult] = []
        for s in scales {
            var floor = memcpyFloor(width: s.pixels(Int(LatencyBenchmarks.width)), height: s.pixels(Int(LatencyBenchmarks.height)))
            if s != 1 { (floor.width, floor.height, floor.bufferScale) = (Int(LatencyBenchmarks.width), Int(LatencyBenchmarks.height), s.factor) }
            results.append(floor)
        }
        for s in scales {
            results += try LatencyBenchmarks.run(executable, scale: s) { name in only.map { name.hasPrefix($0) } ?? true }
        }
        report(results, json: json)
    }
}
