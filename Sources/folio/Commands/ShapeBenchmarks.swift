import Foundation
import FolioBench
import FolioGeometry
import FolioRandom
import FolioReplay
import FolioShapes

/// `shape.recognize`: what recognising a held stroke costs when the hold is up, for strokes of
/// 100, 1,000 and 10,000 points (wobbly circles on a 1920×1200 sheet: they go through every fit).
enum ShapeBenchmarks {
    static let pointCounts = [100, 1000, 10_000]
    static let runs = 300

    static func run() throws -> [BenchResult] {
        var random = SeededRandom(state: 0x5A9E)
        return try pointCounts.map { count in
            let stroke = wobblyCircle(points: count, random: &random)
            var samples: [Double] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                let shape = ShapeRecognizer.recognize(stroke)
                samples.append((ContinuousClock.now - start).milliseconds)
                // A stroke that fits nothing may stop before the last fit: it would be timed short.
                guard shape?.kind == .circle else { throw FolioError("the benchmark's circle of \(count) points did not snap to a circle") }
            }
            var result = BenchResult(name: "shape.recognize", width: 1920, height: 1200, samples: samples)
            result.points = count
            return result
        }
    }

    /// A circle of radius 300 about the sheet's centre, once round, drifting ±2% and trembling ±1 px.
    private static func wobblyCircle(points count: Int, random: inout SeededRandom) -> [Point] {
        (0..<count).map { k in
            let phi = 2 * Double.pi * Double(k) / Double(count - 1)
            let r = 300 + 6 * sin(3 * phi) + (random.unit() * 2 - 1)
            return Point(x: 960 + r * cos(phi), y: 600 + r * sin(phi))
        }
    }
}
