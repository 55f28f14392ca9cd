import Foundation
import FolioGeometry
import FolioPixels
import FolioRender
import FolioShelf

/// Shelves the view tests share: books with distinct cover colours, some with pictures.
enum ShelfFixture {
    static let colors: [UInt32] = [0x8C2F39, 0x2F5D8C, 0x3C7A4A, 0xC9A227, 0x5B3C88, 0x1F1F1F]

    /// `count` books named "Book 1"…, coloured in turn; every other one has a picture (a sheet
    /// with a solid red square in its middle).
    static func shelf(count: Int, pictures: Bool = true) -> InMemoryShelf {
        var books: [ShelfBook] = []
        var pictureByID: [String: Bitmap] = [:]
        for i in 0..<count {
            let id = "b\(i)"
            books.append(ShelfBook(id: id, name: "Book \(i + 1)", coverColor: colors[i % colors.count], path: "/memory/\(id)",
                                   sheets: 1, strokes: 0))
            if pictures && i % 2 == 0 { pictureByID[id] = sheetPicture() }
        }
        return InMemoryShelf(books: books, pictures: pictureByID)
    }

    /// A white 400×300 sheet with a red square over its middle half.
    static func sheetPicture() -> Bitmap {
        let sheet = Bitmap(width: 400, height: 300, color: 0xFFFF_FFFF)
        sheet.fill(0xFFE0_1010, in: PixelRect(x: 100, y: 75, width: 200, height: 150))
        return sheet
    }

    /// Where tests leave the PNGs they draw, to be looked at: $FOLIO_TEST_PNGS or a fresh temporary folder.
    static func pngFolder() -> String {
        if let folder = ProcessInfo.processInfo.environment["FOLIO_TEST_PNGS"] { return folder }
        let folder = NSTemporaryDirectory() + "folio-shelf-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The colour channels of a pixel, unpremultiplied away (frames are opaque).
    static func rgb(_ pixel: UInt32) -> (r: Int, g: Int, b: Int) {
        (Int((pixel >> 16) & 0xFF), Int((pixel >> 8) & 0xFF), Int(pixel & 0xFF))
    }

    static func luminance(_ pixel: UInt32) -> Double {
        let c = rgb(pixel)
        return 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b)
    }

    /// The centre of a quad (its corners' mean).
    static func centre(_ q: Quad) -> Point {
        Point(x: q.corners.map(\.x).reduce(0, +) / 4, y: q.corners.map(\.y).reduce(0, +) / 4)
    }
}

/// A shelf that hands out a new bitmap of each cover picture every time it is asked, as the shelf
/// on disk does, over an in-memory shelf.
final class CopyingShelf: BookShelf {
    let inner: InMemoryShelf

    init(_ inner: InMemoryShelf) { self.inner = inner }

    var books: [ShelfBook] { inner.books }
    func createBook() throws -> ShelfBook { try inner.createBook() }
    func deleteBook(id: String) throws { try inner.deleteBook(id: id) }
    func undoDelete() throws -> ShelfBook? { try inner.undoDelete() }
    func rename(id: String, to name: String) throws { try inner.rename(id: id, to: name) }
    func setCoverColor(id: String, _ color: UInt32) throws { try inner.setCoverColor(id: id, color) }
    func bookOpened(id: String) { inner.bookOpened(id: id) }

    func coverPicture(id: String) -> Bitmap? {
        guard let picture = inner.coverPicture(id: id) else { return nil }
        let copy = Bitmap(width: picture.width, height: picture.height)
        copy.copy(picture.bounds, from: picture)
        return copy
    }
}
