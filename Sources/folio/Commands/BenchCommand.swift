import ArgumentParser
import Foundation
import FolioBench
import FolioGeometry
import FolioPixels
import FolioRender

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure rendering; figures beside the memory-bandwidth floor of the same run.",
        discussion: """
            Input-to-buffer latency (stroke.segment, pinch.frame, startup.first_frame) needs a test \
            compositor, so it is measured by folio-latency-bench, which is not installed: run \
            `make bench-latency` in Folio's source tree.
            """)

    @Flag(help: "Print {\"results\": [...]} as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Run only the benchmarks whose name starts with this (the floor always runs).",
                               valueName: "name"))
    var only: String?

    @Option(help: ArgumentHelp("Run only this frame size (the floor too).", valueName: "WxH"))
    var size: PixelSize?

    @Option(help: ArgumentHelp("Fold frames at this buffer scale (1 to 8, fractions too), the size taken as logical; repeat for several in one run (default 1).",
                               valueName: "N"))
    var scale: [ScaleArgument] = []

    @Option(help: ArgumentHelp("The fold's column kernels: \(FoldKernels.available.map(\.name).joined(separator: ", ")) (default: the fastest).",
                               valueName: "name"))
    var kernels: String?

    func validate() throws {
        let largest = size ?? PixelSize(width: FoldBenchmarks.sizes.map(\.0).max() ?? 1, height: FoldBenchmarks.sizes.map(\.1).max() ?? 1)
        for s in scale { try s.validate(with: largest) }
    }

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
        let scales = scale.isEmpty ? [BufferScale(1)] : scale.map(\.scale)
        for (w, h) in sizes {
            for s in scales {
                var floor = memcpyFloor(width: s.pixels(w), height: s.pixels(h))
                if s != 1 { (floor.width, floor.height, floor.bufferScale) = (w, h, s.factor) }
                results.append(floor)
            }
        }
        let wanted = { (name: String) in only.map { name.hasPrefix($0) || $0.hasPrefix(name) } ?? true }
        if wanted("fold.") {
            for s in scales { results += FoldBenchmarks.run(sizes: sizes, scale: s, kernels: chosen).filter { wanted($0.name) } }
        }
        if wanted("flip.") { results += FlipBenchmarks.run(sizes: sizes, kernels: chosen).filter { wanted($0.name) } }
        if wanted("book.") { results += try BookBenchmarks.run(only: wanted) }
        report(results, json: json)
    }
}
