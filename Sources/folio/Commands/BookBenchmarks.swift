import Foundation
import FolioBench
import FolioCore
import FolioFiles
import FolioGeometry
import FolioInput
import FolioRandom
import FolioRender
import FolioSketchbook

/// `book.*`: the sketchbook on disk with one big sheet, 10,000 strokes of 200 points (32 MB of
/// points), drawn over a 1920×1200 canvas: saving a stroke into it, loading it, migrating it from
/// version 1, opening it to its first frame (from an up-to-date picture, and from one a crash
/// left 50 strokes behind), undoing on it, and what loading it costs in memory.
enum BookBenchmarks {
    static let strokes = 10_000
    static let pointsPerStroke = 200
    static let canvas = (width: 1920, height: 1200)

    static func run(only wanted: (String) -> Bool) throws -> [BenchResult] {
        // A private folder of its own (mkdtemp, 0700): only what this run made in it is ever removed.
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-book-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw FolioError("cannot make a folder for the book benchmarks: \(String(cString: strerror(errno)))")
        }
        let scratch = URL(fileURLWithPath: String(cString: made))
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("book")
        let store = BookStore(directory: folder)
        var random = SeededRandom(state: 0x5EED)
        var book = Sketchbook()
        for _ in 0..<strokes { book.append(stroke(&random)) }
        try store.openForWriting().save(book)
        let (w, h) = canvas
        var results: [BenchResult] = []

        if wanted("book.append") || wanted("book.sync") {
            // One 200-point stroke saved into the big book, 200 times, as the app saves it: the
            // record appended at once (`book.append`), then its fdatasync (`book.sync`; in the app
            // one sync within a second covers every stroke appended since the last).
            let writer = try store.openForWriting()
            var grown = writer.book
            var appends: [Double] = [], syncs: [Double] = []
            for _ in 0..<200 {
                grown.append(stroke(&random))
                appends.append(try time { try writer.append(grown) })
                syncs.append(try time { try writer.sync() })
            }
            if wanted("book.append") { results.append(BenchResult(name: "book.append", width: w, height: h, samples: appends)) }
            if wanted("book.sync") { results.append(BenchResult(name: "book.sync", width: w, height: h, samples: syncs)) }
            // The book returns to its 10,000 strokes for the figures after.
            try writer.save(book)
        }
        if wanted("book.load") {
            var result = BenchResult(name: "book.load", width: w, height: h,
                                     samples: try (0..<10).map { _ in try time { _ = try store.load() } })
            result.memoryMiB = try peakMemoryOfInfo(on: folder)
            results.append(result)
        }
        let pictures = SheetPictureCache(store: store)
        if wanted("book.first_frame") || wanted("book.undo") {
            // An earlier session drew the sheet stroke by stroke and kept its picture at quit.
            try Session(book: book, width: w, height: h, pictures: pictures).keepPicture()
        }
        if wanted("book.first_frame") {
            // What the app does before its first frame: lock and load the book, then a session
            // whose canvas shows the sheet (from its kept picture).
            results.append(BenchResult(name: "book.first_frame", width: w, height: h, samples: try (0..<10).map { _ in
                try time {
                    let writer = try store.openForWriting()
                    let session = Session(book: writer.book, width: w, height: h, pictures: pictures)
                    _ = session.renderFrame()
                }
            }))
        }
        if wanted("book.undo") {
            let session = Session(book: book, width: w, height: h, pictures: pictures)
            _ = session.renderFrame()
            let undo = InputEvent.key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: true)
            let release = InputEvent.key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: false)
            var clock = 0.0
            // The first undos after opening: the tiles kept with the picture put the pixels back.
            results.append(BenchResult(name: "book.undo", width: w, height: h, samples: (0..<20).map { _ in
                clock += 100
                return time {
                    session.handle(undo, at: clock)
                    session.handle(release, at: clock + 1)
                    _ = session.renderFrame()
                }
            }))
        }
        if wanted("book.first_frame_after_crash") {
            // A crash 50 strokes after the picture was last refreshed: the open starts from the
            // picture of the first 9,950 strokes and draws the last 50 over it.
            let lag = 50
            let earlier = Sketchbook(sheets: [Sheet(strokes: Array(book.sheet.strokes.dropLast(lag)))])
            try pictures.keep(nil, book: Sketchbook())
            try Session(book: earlier, width: w, height: h, pictures: pictures).keepPicture()
            results.append(BenchResult(name: "book.first_frame_after_crash", width: w, height: h, samples: try (0..<10).map { _ in
                try time {
                    let writer = try store.openForWriting()
                    let session = Session(book: writer.book, width: w, height: h, pictures: pictures)
                    _ = session.renderFrame()
                }
            }))
        }
        if wanted("book.migrate") {
            // The same book as version 1 JSON, opened by a writer, which migrates it.
            let legacy = versionOneJSON(book)
            results.append(BenchResult(name: "book.migrate", width: w, height: h, samples: try (0..<3).map { _ in
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.replace(store.legacyFile.path, with: legacy, mode: 0o600)
                return try time { _ = try store.openForWriting() }
            }))
        }
        return results
    }

    /// A curving stroke of 200 points 2 px apart, somewhere on the canvas.
    static func stroke(_ random: inout SeededRandom) -> Stroke {
        var p = Point(x: random.unit() * Double(canvas.width), y: random.unit() * Double(canvas.height))
        var heading = random.unit() * 2 * Double.pi
        var points: [Point] = []
        points.reserveCapacity(pointsPerStroke)
        for _ in 0..<pointsPerStroke {
            points.append(p)
            heading += (random.unit() - 0.5) * 0.3
            p = Point(x: p.x + 2 * cos(heading), y: p.y + 2 * sin(heading))
        }
        return Stroke(points: points)
    }

    static func time(_ work: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try work()
        return (ContinuousClock.now - start).milliseconds
    }

    /// The peak resident memory of `folio info` reading the book, in MiB: what loading it costs.
    private static func peakMemoryOfInfo(on folder: URL) throws -> Double {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = [executable, "info", "--book", folder.path]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, &argv, environ) == 0 else {
            throw FolioError("cannot start \(executable) to measure its memory")
        }
        // wait4 reaps the child and gives its own resource usage, peak memory included.
        var usage = rusage()
        var status: Int32 = 0
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw FolioError("cannot wait for folio info: \(String(cString: strerror(errno)))") }
        }
        return Double(usage.ru_maxrss) / 1024
    }

    /// The book as Folio 0.1 wrote it (format version 1): one JSON document.
    private static func versionOneJSON(_ book: Sketchbook) -> Data {
        var text = "{\"currentSheet\":\(book.currentSheet),\"format\":\"folio-sketchbook\",\"sheets\":["
        text += book.sheets.map { sheet in
            "{\"strokes\":[" + sheet.strokes.map { stroke in
                "{\"color\":\"#0000FF\",\"points\":[" + stroke.points.map { "\($0.x),\($0.y)" }.joined(separator: ",")
                    + "],\"width\":\(stroke.style.width)}"
            }.joined(separator: ",") + "]}"
        }.joined(separator: ",")
        return Data((text + "],\"version\":1}").utf8)
    }
}
