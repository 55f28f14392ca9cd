import FolioBench
import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRandom
import FolioShelf
import FolioSketchbook

/// `shelf.first_frame`: a shelf of 50 books, each with its cover picture (the kept thumbnails a
/// shelf hands out), from making the session and its shelf to the first frame's pixels.
/// `shelf.open_book`: a tap on a cover of that shelf, the book (300 strokes, in memory) put on
/// the easel, to the first frame of its unfold (the fold's renderer made ahead, as the app makes it
/// once the first frame is up). `shelf.scroll_frame`: a finger dragging that shelf up, 8 px a
/// touch frame, each move to its frame's pixels (60 of them). 10 runs each, at the fold's sizes.
enum ShelfBenchmarks {
    static let books = 50
    static let strokes = 300
    static let runs = 10

    static func run(sizes: [(Int, Int)], scale: BufferScale = 1, only wanted: (String) -> Bool) -> [BenchResult] {
        var results: [BenchResult] = []
        let bufferScale = scale == 1 ? nil : scale.factor
        let pictures = (0..<books).map { _ in FoldBenchmarks.sketch(width: 320, height: 200) }
        var random = SeededRandom(state: 26)
        var book = Sketchbook()
        for _ in 0..<strokes { book.append(BookBenchmarks.stroke(&random)) }
        for (w, h) in sizes {
            var first: [Double] = [], open: [Double] = [], scroll: [Double] = []
            for run in 0..<runs {
                let shelf = shelf(pictures: pictures)
                // A session on that shelf, its first frame drawn.
                func onTheShelf() -> Session {
                    let made = Session(width: w, height: h, scale: scale)
                    made.showShelf(ShelfAccess(shelf: shelf, open: { _ in book }, save: { _, _ in }))
                    _ = made.renderFrame()
                    return made
                }
                var session: Session?
                first.append(BookBenchmarks.time { session = onTheShelf() })
                if run == 0, wanted("shelf.scroll_frame") {
                    scroll = scrollFrames(onTheShelf(), width: w, height: h)
                }
                // As the app does at the first frame callback: the fold's renderer made ahead.
                session?.prepareToFold()
                guard let session, wanted("shelf.open_book"),
                      let cover = session.shelf?.view.screenQuad(of: shelf.books[0].id) else { continue }
                let tap = Point(x: cover.corners.map(\.x).reduce(0, +) / 4, y: cover.corners.map(\.y).reduce(0, +) / 4)
                open.append(BookBenchmarks.time {
                    session.handle(.touchDown(id: 1, at: tap), at: 1000)
                    session.handle(.touchFrame, at: 1000)
                    session.handle(.touchUp(id: 1), at: 1050)
                    session.handle(.touchFrame, at: 1050)
                    session.advance(to: 1066)
                    _ = session.renderFrame()
                })
            }
            results.append(BenchResult(name: "shelf.first_frame", width: w, height: h, bufferScale: bufferScale, samples: first))
            if !open.isEmpty {
                results.append(BenchResult(name: "shelf.open_book", width: w, height: h, bufferScale: bufferScale, samples: open))
            }
            if !scroll.isEmpty {
                results.append(BenchResult(name: "shelf.scroll_frame", width: w, height: h, bufferScale: bufferScale, samples: scroll))
            }
        }
        return results.filter { wanted($0.name) }
    }

    /// A finger drags the shelf up from the window's lower part, then holds and lifts: each move
    /// and the frame it draws, timed.
    private static func scrollFrames(_ session: Session, width: Int, height: Int) -> [Double] {
        let x = Double(width) / 2, start = Double(height) * 0.8
        var time = 2000.0
        session.handle(.touchDown(id: 1, at: Point(x: x, y: start)), at: time)
        session.handle(.touchFrame, at: time)
        _ = session.renderFrame()
        let samples = (1...60).map { step in
            BookBenchmarks.time {
                time += 8
                session.handle(.touchMotion(id: 1, to: Point(x: x, y: start - Double(step) * 8)), at: time)
                session.handle(.touchFrame, at: time)
                _ = session.renderFrame()
            }
        }
        // Held still before the lift: no glide, no tap.
        session.handle(.touchUp(id: 1), at: time + 400)
        session.handle(.touchFrame, at: time + 400)
        return samples
    }

    private static func shelf(pictures: [Bitmap]) -> InMemoryShelf {
        let colors: [UInt32] = [0x8C2F39, 0x2F5D8C, 0x3C7A4A, 0xC9A227, 0x5B3C88]
        var made: [ShelfBook] = []
        var byID: [String: Bitmap] = [:]
        for i in 0..<books {
            let id = "book-\(i + 1)"
            made.append(ShelfBook(id: id, name: "Book 2026-11-\(String(format: "%02d", i % 28 + 1))", coverColor: colors[i % colors.count],
                                  path: "/memory/\(id)", sheets: 1, strokes: strokes))
            byID[id] = pictures[i]
        }
        return InMemoryShelf(books: made, pictures: byID)
    }
}
