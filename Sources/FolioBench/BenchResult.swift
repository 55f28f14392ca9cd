import Foundation
import FolioPixels
import FolioReplay

/// One benchmark figure, named as `folio bench --json` and `folio-latency-bench --json` print it.
public struct BenchResult {
    public var name: String
    public var width: Int
    public var height: Int
    /// The fold's scale, or a page turn's progress q, the figure was taken at.
    public var scale: Double?
    public var progress: Double?
    public var threads: Int?
    public var kernels: String?
    /// Buffer pixels per logical pixel, where a figure was taken at a buffer scale (`width`×`height`
    /// is then the logical size).
    public var bufferScale: Double?
    public var samples: [Double]
    /// Peak resident memory, where the figure measures it.
    public var memoryMiB: Double?
    /// The points of the stroke a figure was taken on, where it depends on them.
    public var points: Int?
    /// What the samples are in ("ms" unless said), and the upper percentile reported (p99 unless said).
    public var unit = "ms"
    public var upperPercentile = 99
    /// Vblanks the frames measured missed, where the figure counts them.
    public var missedVblanks: Int?

    public init(name: String, width: Int, height: Int, scale: Double? = nil, progress: Double? = nil, threads: Int? = nil,
                kernels: String? = nil, bufferScale: Double? = nil, samples: [Double]) {
        self.name = name
        self.width = width
        self.height = height
        self.scale = scale
        self.progress = progress
        self.threads = threads
        self.kernels = kernels
        self.bufferScale = bufferScale
        self.samples = samples
    }

    var json: [String: Any] {
        let sorted = samples.sorted()
        var object: [String: Any] = ["name": name, "size": "\(width)x\(height)",
                                     "p2_\(unit)": percentile(sorted, 0.02), "p50_\(unit)": percentile(sorted, 0.5),
                                     "p\(upperPercentile)_\(unit)": percentile(sorted, Double(upperPercentile) / 100)]
        if let scale { object["scale"] = scale }
        if let progress { object["progress"] = progress }
        if let threads { object["threads"] = threads }
        if let kernels { object["kernels"] = kernels }
        if let bufferScale { object["buffer_scale"] = bufferScale }
        if let memoryMiB { object["memory_mib"] = memoryMiB }
        if let points { object["points"] = points }
        if let missedVblanks { object["missed_vblanks"] = missedVblanks }
        return object
    }
}

/// The floor every figure is compared with: copying one whole frame, as pixman copies it.
public func memcpyFloor(width: Int, height: Int, runs: Int = 200) -> BenchResult {
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

/// Prints the figures: `{"results": [...]}` as JSON, or one aligned line each.
public func report(_ results: [BenchResult], json: Bool) {
    if json {
        let object: [String: Any] = ["results": results.map(\.json)]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
            print(String(decoding: data, as: UTF8.self))
        }
    } else {
        for r in results {
            let sorted = r.samples.sorted()
            var label = "\(r.name) \(r.width)x\(r.height)"
            if let b = r.bufferScale { label += "@\(b)x" }
            if let s = r.scale { label += " s=\(s)" }
            if let q = r.progress { label += " q=\(q)" }
            if let t = r.threads { label += " threads=\(t)" }
            if let k = r.kernels { label += " \(k)" }
            if let n = r.points { label += " points=\(n)" }
            print(label.padding(toLength: max(52, label.count + 1), withPad: " ", startingAt: 0)
                  + String(format: "p50 %8.3f ", percentile(sorted, 0.5)) + r.unit
                  + String(format: "   p%d %8.3f ", r.upperPercentile, percentile(sorted, Double(r.upperPercentile) / 100)) + r.unit
                  + (r.memoryMiB.map { String(format: "   peak memory %.1f MiB", $0) } ?? "")
                  + (r.missedVblanks.map { "   missed vblanks \($0)" } ?? ""))
        }
    }
}
