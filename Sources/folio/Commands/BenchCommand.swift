import ArgumentParser
import Foundation
import FolioBench
import FolioGeometry
import FolioLayers
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

    @Option(parsing: .unconditional, help: ArgumentHelp("Run only this frame size (the floor too).", valueName: "WxH"), transform: PixelSize.parse)
    var size: PixelSize?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Fold and page-turn frames at this buffer scale (1 to 8, fractions too), the size taken as logical; repeat for several in one run (default 1).",
                               valueName: "N"))
    var scale: [ScaleArgument] = []

    @Option(help: ArgumentHelp("The page renderer's column kernels (fold and turn): \(PageKernels.available.map(\.name).joined(separator: ", ")) (default: the fastest).",
                               valueName: "name"))
    var kernels: String?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Render threads for fold and page-turn frames (1 to 16); repeat for several (default 1 and 2).",
                               valueName: "N"))
    var threads: [Int] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Fold frames at only this fold scale (0.48 to 1); repeat for several (default 1, 0.9, 0.75, 0.6, 0.48).",
                               valueName: "S"))
    var fold: [Double] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Page-turn frames at only this progress (0 to 1); repeat for several (default 0.25 and 0.75).",
                               valueName: "Q"))
    var progress: [Double] = []

    func validate() throws {
        for t in threads where !(1...16).contains(t) { throw ValidationError("--threads \(t) is outside 1…16") }
        for s in fold where !(FoldScene.minimumScale...1).contains(s) {
            throw ValidationError("--fold \(s) is outside \(FoldScene.minimumScale)…1")
        }
        for q in progress where !(0...1).contains(q) { throw ValidationError("--progress \(q) is outside 0…1") }
        if let size, !FoldBenchmarks.sizes.contains(where: { $0 == (size.width, size.height) }) {
            let sizes = FoldBenchmarks.sizes.map { "\($0.0)x\($0.1)" }
            throw ValidationError("--size \(size.width)x\(size.height) is not measured: the sizes are \(sizes.joined(separator: ", "))")
        }
        let largest = size ?? PixelSize(width: FoldBenchmarks.sizes.map(\.0).max() ?? 1, height: FoldBenchmarks.sizes.map(\.1).max() ?? 1)
        for s in scale { try s.validate(with: largest) }
    }

    func run() throws {
        let chosen = try PageKernels.named(kernels)
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
        let threadCounts = threads.isEmpty ? [1, 2] : threads
        if wanted("fold.") {
            for s in scales {
                results += FoldBenchmarks.run(sizes: sizes, scale: s, kernels: chosen, threads: threadCounts,
                                              foldScales: fold.isEmpty ? FoldBenchmarks.scales : fold).filter { wanted($0.name) }
            }
        }
        if wanted("flip.") {
            for s in scales {
                results += TurnBenchmarks.run(sizes: sizes, scale: s, kernels: chosen, threads: threadCounts,
                                              progress: progress.isEmpty ? TurnBenchmarks.progress : progress).filter { wanted($0.name) }
            }
        }
        if wanted("frame.") {
            for s in scales {
                results += try FrameBenchmarks.run(sizes: sizes, scale: s, threads: threadCounts).filter { wanted($0.name) }
            }
        }
        if wanted("book.") { results += try BookBenchmarks.run(only: wanted) }
        if wanted("shape.") { results += try ShapeBenchmarks.run() }
        if wanted("lasso.") { results += try LassoBenchmarks.run(only: wanted) }
        if wanted("shelf.list") { results += try ShelfListBenchmark.run() }
        if wanted("shelf.") {
            for s in scales { results += ShelfBenchmarks.run(sizes: sizes, scale: s, only: wanted) }
        }
        report(results, json: json)
    }
}
