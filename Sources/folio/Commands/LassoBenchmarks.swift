import Foundation
import FolioBench
import FolioCore
import FolioGeometry
import FolioInput
import FolioRandom
import FolioSketchbook
import FolioTools

/// `lasso.*`: selecting 500 strokes (200 points each) of a 1920×1200 sheet of 1,000 with a loop of
/// about 500 points (`lasso.select`: the lift that closes the loop, once), moving them a frame at a time
/// as a finger drags them (`lasso.move_frame`: the input and the frame it makes),
/// the lift that puts the move in the book (`lasso.drop`), and saving that move into the
/// 10,000-stroke book `book.*` uses (`lasso.move_append`: the record the app appends).
enum LassoBenchmarks {
    static let selected = 500
    static let canvas = BookBenchmarks.canvas

    static func run(only wanted: (String) -> Bool) throws -> [BenchResult] {
        let (w, h) = canvas
        var results: [BenchResult] = []
        var random = SeededRandom(state: 0x1A55)
        if wanted("lasso.move_frame") || wanted("lasso.drop") || wanted("lasso.select") {
            // 500 strokes in the left half, 500 in the right; a loop round the left half takes the first.
            var book = Sketchbook()
            for half in 0..<2 {
                for _ in 0..<selected { book.append(within(x: Double(half) * Double(w) / 2, width: Double(w) / 2, &random)) }
            }
            let session = Session(book: book, width: w, height: h)
            session.choose(.lasso)
            // Clear of the edge zones, where a finger turns the page; a point every 8 px, as a finger gives them.
            let corners = [Point(x: 40, y: 40), Point(x: Double(w) / 2, y: 40), Point(x: Double(w) / 2, y: Double(h) - 40),
                           Point(x: 40, y: Double(h) - 40), Point(x: 40, y: 40)]
            let loop = zip(corners, corners.dropFirst()).flatMap { a, b in
                let steps = Int((a.distance(to: b) / 8).rounded(.up))
                return (0..<steps).map { a + (b - a) * (Double($0) / Double(steps)) }
            } + [corners[0]]
            var clock = 0.0
            func touch(_ event: InputEvent) {
                clock += 1
                session.handle(event, at: clock)
                session.handle(.touchFrame, at: clock)
            }
            touch(.touchDown(id: 1, at: loop[0]))
            for p in loop.dropFirst() { touch(.touchMotion(id: 1, to: p)) }
            let select = BookBenchmarks.time {
                touch(.touchUp(id: 1))
                _ = session.renderFrame()
            }
            guard session.selectedStrokes.count == selected else {
                throw FolioError("the lasso benchmark selected \(session.selectedStrokes.count) strokes, not \(selected)")
            }
            var frames: [Double] = [], drops: [Double] = []
            for drag in 0..<10 {
                clock += 300
                guard session.selectedStrokes.count == selected else { throw FolioError("the lasso benchmark lost its selection") }
                let start = Point(x: Double(w) / 4, y: Double(h) / 2)
                touch(.touchDown(id: 1, at: start))
                _ = session.renderFrame()
                for step in 1...60 {
                    // Right and down, then back, 4 px a frame: a steady drag at 240 px/s.
                    let dx = Double(drag % 2 == 0 ? step : -step) * 4
                    frames.append(BookBenchmarks.time {
                        touch(.touchMotion(id: 1, to: Point(x: start.x + dx, y: start.y + dx / 2)))
                        _ = session.renderFrame()
                    })
                }
                drops.append(BookBenchmarks.time {
                    touch(.touchUp(id: 1))
                    _ = session.renderFrame()
                })
            }
            if wanted("lasso.select") { results.append(BenchResult(name: "lasso.select", width: w, height: h, samples: [select])) }
            if wanted("lasso.move_frame") { results.append(BenchResult(name: "lasso.move_frame", width: w, height: h, samples: frames)) }
            if wanted("lasso.drop") { results.append(BenchResult(name: "lasso.drop", width: w, height: h, samples: drops)) }
        }
        if wanted("lasso.move_append") {
            var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-lasso-XXXXXX").path.utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
                throw FolioError("cannot make a folder for the lasso benchmarks: \(String(cString: strerror(errno)))")
            }
            let scratch = URL(fileURLWithPath: String(cString: made))
            defer { try? FileManager.default.removeItem(at: scratch) }
            var book = Sketchbook()
            for _ in 0..<BookBenchmarks.strokes { book.append(BookBenchmarks.stroke(&random)) }
            let writer = try BookStore(directory: scratch.appendingPathComponent("book")).openForWriting()
            try writer.save(book)
            // 500 strokes spread over the sheet, the earliest near its start: a move of them
            // must not rewrite the thousands after.
            let chosen = Set((0..<selected).map { $0 * (BookBenchmarks.strokes / selected) })
            var samples: [Double] = []
            for step in 0..<200 {
                book.move(chosen, by: Point(x: step % 2 == 0 ? 12.5 : -12.5, y: 3.25))
                samples.append(try BookBenchmarks.time { try writer.append(book) })
            }
            results.append(BenchResult(name: "lasso.move_append", width: w, height: h, samples: samples))
        }
        return results
    }

    /// A curving stroke of 200 points 2 px apart, within the band from `x` `width` wide, away
    /// from the canvas's edges.
    private static func within(x: Double, width: Double, _ random: inout SeededRandom) -> Stroke {
        let margin = 410.0
        var p = Point(x: x + margin + random.unit() * (width - 2 * margin), y: margin + random.unit() * (Double(canvas.height) - 2 * margin))
        var heading = random.unit() * 2 * Double.pi
        var points: [Point] = []
        for _ in 0..<BookBenchmarks.pointsPerStroke {
            points.append(p)
            heading += (random.unit() - 0.5) * 0.3
            p = Point(x: p.x + 2 * cos(heading), y: p.y + 2 * sin(heading))
        }
        return Stroke(points: points)
    }
}
