import ArgumentParser
import Foundation
import FolioBench
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
        if wanted("flip.") { results += FlipBenchmarks.run(sizes: sizes, kernels: chosen).filter { wanted($0.name) } }
        if wanted("book.") { results += try BookBenchmarks.run(only: wanted) }
        report(results, json: json)
    }
}
