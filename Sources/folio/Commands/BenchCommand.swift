import ArgumentParser
import Foundation
import FolioPixels
import FolioRender
import FolioReplay

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure rendering and input latency; figures beside the memory-bandwidth floor of the same run.")

    @Flag(help: "Print {\"results\": [...]} as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Run only the benchmarks whose name starts with this (the floor always runs).",
                               valueName: "name"))
    var only: String?

    @Option(help: ArgumentHelp("Run only this frame size (the floor too).", valueName: "WxH"))
    var size: PixelSize?

    @Option(help: ArgumentHelp("The fold's column kernels: \(FoldKernels.available.map(\.name).joined(separator: ", ")) (default: the fastest).",
                               valueName: "name"))
    var kernels: String?

    func run() throws {
        var chosen = FoldKernels.best
        if let kernels {
            guard let named = FoldKernels.available.first(where: { $0.name == kernels }) else {
                throw ValidationError("no fold kernels '\(kernels)' on this CPU (it runs \(FoldKernels.available.map(\.name).joined(separator: ", ")))")
            }
            chosen = named
        }
        var results: [BenchResult] = []
        let sizes = FoldBenchmarks.sizes.filter { size == nil || ($0.0, $0.1) == (size?.width, size?.height) }
        for (w, h) in sizes {
            results.append(memcpyFloor(width: w, height: h))
        }
        let wanted = { (name: String) in only.map { name.hasPrefix($0) || $0.hasPrefix(name) } ?? true }
        if wanted("fold.") { results += FoldBenchmarks.run(sizes: sizes, kernels: chosen).filter { wanted($0.name) } }
        if wanted("stroke.") || wanted("pinch.") || wanted("startup.") {
            results += LatencyBenchmarks.run().filter { wanted($0.name) }
        }
        report(results, json: json)
    }
}

/// One benchmark figure, named as `folio bench --json` prints it.
struct BenchResult {
    var name: String
    var width: Int
    var height: Int
    var scale: Double? = nil
    var threads: Int? = nil
    var kernels: String? = nil
    var samples: [Double]

    var json: [String: Any] {
        let sorted = samples.sorted()
        var object: [String: Any] = ["name": name, "size": "\(width)x\(height)",
                                     "p50_ms": percentile(sorted, 0.5), "p99_ms": percentile(sorted, 0.99)]
        if let scale { object["scale"] = scale }
        if let threads { object["threads"] = threads }
        if let kernels { object["kernels"] = kernels }
        return object
    }
}

/// The floor every frame is compared with: copying one whole frame, as pixman copies it.
func memcpyFloor(width: Int, height: Int, runs: Int = 200) -> BenchResult {
    let source = Bitmap(width: width, height: height, color: 0xFF33_6699)
    let target = Bitmap(width: width, height: height)
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        target.copy(target.bounds, from: source)
        samples.append((ContinuousClock.now - start).milliseconds)
    }
    return BenchResult(name: "floor.memcpy", width: width, height: height, samples: samples)
}


func report(_ results: [BenchResult], json: Bool) {
    if json {
        let object: [String: Any] = ["results": results.map(\.json)]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
            print(String(decoding: data, as: UTF8.self))
        }
    } else {
        for r in results {
            let sorted = r.samples.sorted()
            var label = "\(r.name) \(r.width)x\(r.height)"
            if let s = r.scale { label += " s=\(s)" }
            if let t = r.threads { label += " threads=\(t)" }
            if let k = r.kernels { label += " \(k)" }
            print(label.padding(toLength: 52, withPad: " ", startingAt: 0)
                  + String(format: "p50 %8.3f ms   p99 %8.3f ms", percentile(sorted, 0.5), percentile(sorted, 0.99)))
        }
    }
}
