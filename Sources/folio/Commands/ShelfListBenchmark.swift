import Foundation
import FolioBench
import FolioGeometry
import FolioRandom
import FolioShelf
import FolioSketchbook

/// `shelf.list`: what the shelf needs for its first frame with 50 books: opening the shelf
/// (listing the books from their entries) and loading the 50 cover pictures.
enum ShelfListBenchmark {
    static let books = 50
    static let strokesPerBook = 40

    static func run() throws -> [BenchResult] {
        // A private folder of its own (mkdtemp, 0700): only what this run made in it is ever removed.
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-shelf-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw FolioError("cannot make a folder for the shelf benchmark: \(String(cString: strerror(errno)))")
        }
        let scratch = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let data = scratch + "/folio"
        let shelf = try Library(dataFolder: data, warning: { warn($0) })
        var random = SeededRandom(state: 0x5EED)
        for _ in 0..<books {
            let made = try shelf.createBook()
            var book = Sketchbook()
            for _ in 0..<strokesPerBook { book.append(BookBenchmarks.stroke(&random)) }
            try BookStore(directory: URL(fileURLWithPath: made.path)).openForWriting().save(book)
            shelf.bookChanged(id: made.id)
        }
        shelf.waitForCovers()
        shelf.close()
        var size = (width: 0, height: 0)
        let samples = try (0..<20).map { _ in
            try BookBenchmarks.time {
                let library = try Library(dataFolder: data)
                for book in library.books {
                    guard let cover = library.coverPicture(id: book.id) else { throw FolioError("the shelf benchmark's book \(book.id) has no cover") }
                    size = (cover.width, cover.height)
                }
                library.close()
            }
        }
        return [BenchResult(name: "shelf.list", width: size.width, height: size.height, samples: samples)]
    }
}
