import FolioCore
import FolioGeometry
import FolioLayers
import Foundation
import TestCompositor
import XCTest

/// Where the shelf puts its bar's controls and its covers in a window of `width`×`height`
/// logical px, worked out by the layout code the app draws with (`ShelfBar`, `ShelfLayout`,
/// `ShelfScene`), so a tap lands where the app will look for it whatever the layout becomes.
struct ShelfOnScreen {
    let width: Double
    let height: Double

    /// The middle of `control` on the bar.
    func centre(of control: ShelfControl) throws -> Point {
        let rect = try XCTUnwrap(ShelfBar(width: width).rect(of: control), "\(control) is on the bar")
        return Point(x: rect.minX + rect.width / 2, y: rect.minY + rect.height / 2)
    }

    /// Points spread over book `index`'s cover (of `count` books, the shelf unscrolled), in
    /// window coordinates: the cover's own grid carried through its perspective.
    func coverPoints(_ index: Int, of count: Int, grid: Int = 24) throws -> [Point] {
        let layout = ShelfLayout(width: width, height: height, count: count)
        let scene = ShelfScene(layout: layout)
        scene.update(layout: layout, scroll: 0) { _ in nil }
        let cover = try XCTUnwrap(scene.covers.first { $0.index == index }, "cover \(index) of \(count) is on screen")
        let transform = cover.contentLayer.transformToRoot
        let size = layout.coverSize
        return (0..<grid).flatMap { row in
            (0..<grid).compactMap { column in
                transform.project(Point(x: (Double(column) + 0.5) * size.width / Double(grid),
                                        y: (Double(row) + 0.5) * size.height / Double(grid)))
            }
        }
    }

    /// The middle of book `index`'s cover, where a tap opens (or recolours, deletes, renames) it.
    func coverCentre(_ index: Int, of count: Int) throws -> Point {
        let layout = ShelfLayout(width: width, height: height, count: count)
        let scene = ShelfScene(layout: layout)
        scene.update(layout: layout, scroll: 0) { _ in nil }
        let cover = try XCTUnwrap(scene.covers.first { $0.index == index }, "cover \(index) of \(count) is on screen")
        return try XCTUnwrap(cover.contentLayer.transformToRoot.project(Point(x: layout.coverSize.width / 2, y: layout.coverSize.height / 2)))
    }

    /// The share of cover `index`'s points showing `color` (0x00RRGGBB) in `image`, within the
    /// shelf's lighting of it.
    func share(of color: UInt32, onCover index: Int, of count: Int, in image: Image) throws -> Double {
        let points = try coverPoints(index, of: count)
        let matching = points.count { p in
            let x = Int(p.x), y = Int(p.y)
            guard (0..<image.width).contains(x), (0..<image.height).contains(y) else { return false }
            return Self.isLit(color, image.pixel(x: x, y: y))
        }
        return Double(matching) / Double(max(points.count, 1))
    }

    /// Whether `pixel` (opaque, 0xAARRGGBB) is `color` as light and shade leave it: the same hue
    /// and proportions, each channel within a third brighter or darker.
    static func isLit(_ color: UInt32, _ pixel: UInt32) -> Bool {
        let c = Ink.channels(pixel)
        guard c.a >= 250 else { return false }
        let want = [Double((color >> 16) & 0xFF), Double((color >> 8) & 0xFF), Double(color & 0xFF)]
        let got = [Double(c.r), Double(c.g), Double(c.b)]
        let wantSum = want.reduce(0, +), gotSum = got.reduce(0, +)
        guard wantSum > 0, gotSum > 0, (0.67...1.5).contains(gotSum / wantSum) else { return false }
        // The same proportions between channels, to within a few per cent of the total.
        return zip(want, got).allSatisfy { abs($0 / wantSum - $1 / gotSum) < 0.04 }
    }
}

/// A book as `folio books` lists it, with the colour its `shelf.json` keeps.
struct ListedBook: Equatable {
    var name: String
    var path: String
    var coverColor: UInt32
}

extension FolioUnderTest {
    /// The shelf in the test's data home, as `folio books` prints it (newest first), each book's
    /// cover colour read from its `shelf.json`.
    func listedBooks(file: StaticString = #filePath, line: UInt = #line) throws -> [ListedBook] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome
        let process = try ClientProcess.start(try ClientProcess.folioExecutable(), arguments: ["books"], environment: environment)
        XCTAssertEqual(try process.waitForExit(), 0, process.standardError, file: file, line: line)
        let json = try JSONSerialization.jsonObject(with: Data(process.standardOutput.utf8)) as? [String: Any]
        let books = try XCTUnwrap(json?["books"] as? [[String: Any]], process.standardOutput, file: file, line: line)
        return try books.map { book in
            let name = try XCTUnwrap(book["name"] as? String, file: file, line: line)
            let path = try XCTUnwrap(book["path"] as? String, file: file, line: line)
            let entry = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path + "/shelf.json"))) as? [String: Any]
            let color = try XCTUnwrap((entry?["coverColor"] as? NSNumber)?.uint32Value, "\(path)/shelf.json has a coverColor", file: file, line: line)
            return ListedBook(name: name, path: path, coverColor: color)
        }
    }

    /// Waits until `folio books` lists what `condition` wants; the last listing.
    @discardableResult
    /// A book the app is still making may be listed before its `shelf.json` is written: that
    /// listing is taken again.
    func waitForBooks(_ what: String, timeout: TimeInterval = 10, _ condition: ([ListedBook]) -> Bool) throws -> [ListedBook] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let books = Result { try listedBooks() }
            if case let .success(listed) = books, condition(listed) { return listed }
            guard Date() < deadline, client.isRunning else {
                throw TestCompositorError("no \(what): the shelf lists \(books); folio's stderr:\n\(client.standardError)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// A finger's tap at `p`: down and up, each in its own touch frame.
    func tap(_ p: Point) throws {
        try compositor.sendTouch([.down(id: 1, x: p.x, y: p.y), .frame])
        try compositor.sendTouch([.up(id: 1), .frame])
    }

    /// Waits until the shelf shows `colors` (newest first) on its covers, each on a good part of its cover.
    @discardableResult
    func waitForCovers(_ colors: [UInt32], on shelf: ShelfOnScreen, _ what: String) throws -> Image {
        try waitForImage(what) { image in
            colors.indices.allSatisfy { index in
                ((try? shelf.share(of: colors[index], onCover: index, of: colors.count, in: image)) ?? 0) > ShelfOnScreen.coverShare
            }
        }
    }
}

extension ShelfOnScreen {
    /// How much of a cover shows its colour at least (the rest is its spine, its paper label and
    /// its name, and the edges the perspective leaves between grid points).
    static let coverShare = 0.2
}
