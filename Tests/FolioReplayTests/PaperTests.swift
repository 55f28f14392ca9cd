import FolioCore
import Foundation
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioSketchbook
import FolioToolbar
import XCTest

/// Paper through a Session: lines and dots on whole buffer pixels under the ink at scales 1, 1.5
/// and 2, the fold's and the turn's pages showing each sheet's paper, and the toolbar's paper
/// control with its undo.
final class PaperTests: XCTestCase {
    private let (width, height) = (400, 300)
    private let scales: [BufferScale] = [1, BufferScale(numerator: 180), 2]
    private let blue: UInt32 = 0xFF00_00FF
    private let white: UInt32 = 0xFFFF_FFFF

    private func touchFrame(_ session: Session, at t: Double, _ events: InputEvent...) {
        for event in events { session.handle(event, at: t) }
        session.handle(.touchFrame, at: t)
    }

    /// A vertical stroke at x = 200 from y = 20 to 280: it crosses every row of the paper.
    private func drawStroke(_ session: Session, at t: Double) {
        touchFrame(session, at: t, .touchDown(id: 1, at: Point(x: 200, y: 20)))
        for i in 1...10 { touchFrame(session, at: t + Double(i) * 16, .touchMotion(id: 1, to: Point(x: 200, y: 20 + Double(i) * 26))) }
        touchFrame(session, at: t + 200, .touchUp(id: 1))
    }

    /// The frame as a PNG in .build/test-artifacts/paper, to look at.
    private func keep(_ bitmap: Bitmap, _ name: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent(".build/test-artifacts/paper")
        XCTAssertNoThrow(try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true))
        XCTAssertNoThrow(try PNG.encode(bitmap).write(to: folder.appendingPathComponent("\(name).png")))
    }

    func testEachPaperLiesOnWholeBufferPixelsUnderTheInkAtEveryScale() {
        for scale in scales {
            for kind in Paper.Kind.allCases {
                let paper = Paper(kind: kind, spacing: 32, color: 0x3366CC)
                let line = 0xFF00_0000 | paper.color
                let session = Session(book: Sketchbook(sheets: [Sheet(paper: paper)]), width: width, height: height, scale: scale)
                drawStroke(session, at: 0)
                _ = session.renderFrame()
                let frame = session.frame, s = scale.factor
                keep(frame, "\(kind.rawValue)@\(s)")
                let label = "\(kind) at \(s)"
                let thickness = max(1, Int(s.rounded(.down)))
                // Away from the ink (x = 50 logical) and from every column (between 32 and 64).
                let x = Int(50 * s)
                for k in 1...8 {
                    let row = Int((Double(k) * 32 * s).rounded(.down))
                    let expectedRow = paper.hasRows ? line : white
                    for dy in 0..<thickness {
                        XCTAssertEqual(frame.pixel(x: x, y: row + dy), expectedRow, "\(label): row \(k), line pixel \(dy)")
                    }
                    XCTAssertEqual(frame.pixel(x: x, y: row - 1), white, "\(label): above row \(k)")
                    XCTAssertEqual(frame.pixel(x: x, y: row + thickness), white, "\(label): below row \(k)")
                    // The ink lies over the paper where the stroke crosses a row.
                    XCTAssertEqual(frame.pixel(x: Int(200 * s), y: row), blue, "\(label): ink over row \(k)")
                }
                let y = Int(50 * s)
                for k in [1, 2, 4, 5] {
                    let column = Int((Double(k) * 32 * s).rounded(.down))
                    XCTAssertEqual(frame.pixel(x: column, y: y), paper.hasColumns ? line : white, "\(label): column \(k)")
                    XCTAssertEqual(frame.pixel(x: column + thickness, y: y), white, "\(label): right of column \(k)")
                }
                // Dots: a square of max(2, ⌊2 × scale⌋) pixels round each crossing, white between.
                let dot = max(2, Int((2 * s).rounded(.down)))
                for (i, j) in [(1, 1), (2, 3), (4, 8)] {
                    let left = Int((Double(i) * 32 * s).rounded()) - dot / 2, top = Int((Double(j) * 32 * s).rounded()) - dot / 2
                    let inDot = [frame.pixel(x: left, y: top), frame.pixel(x: left + dot - 1, y: top + dot - 1)]
                    if paper.hasDots {
                        XCTAssertEqual(inDot, [line, line], "\(label): dot \(i), \(j)")
                        XCTAssertEqual(frame.pixel(x: left + dot, y: top), white, "\(label): right of dot \(i), \(j)")
                        XCTAssertEqual(frame.pixel(x: left - 1, y: top), white, "\(label): left of dot \(i), \(j)")
                        XCTAssertEqual(frame.pixel(x: left, y: top + dot), white, "\(label): under dot \(i), \(j)")
                    } else if !paper.hasRows && !paper.hasColumns {
                        XCTAssertEqual(inDot, [white, white], "\(label): plain at \(i), \(j)")
                    }
                }
                // Every pixel is ink, white or the paper's colour: nothing blurred between.
                var others = 0
                for py in 0..<frame.height {
                    for px in 0..<frame.width where abs(px - Int(200 * s)) > Int(5 * s) {
                        let v = frame.pixel(x: px, y: py)
                        if v != white && v != line, py < Int(240 * s) { others += 1 }
                    }
                }
                XCTAssertEqual(others, 0, "\(label): paper pixels are crisp")
            }
        }
    }

    /// The paper's own colour in a frame: pixels much redder than blue (the ink is blue).
    private func reddish(_ frame: Bitmap, _ region: (x: Range<Int>, y: Range<Int>)? = nil) -> Int {
        var count = 0
        for y in region?.y ?? 0..<frame.height {
            for x in region?.x ?? 0..<frame.width {
                let v = frame.pixel(x: x, y: y)
                let r = Int((v >> 16) & 0xFF), g = Int((v >> 8) & 0xFF), b = Int(v & 0xFF)
                if r > b + 60 && r > g + 60 { count += 1 }
            }
        }
        return count
    }

    private func greenish(_ frame: Bitmap, _ region: (x: Range<Int>, y: Range<Int>)? = nil) -> Int {
        var count = 0
        for y in region?.y ?? 0..<frame.height {
            for x in region?.x ?? 0..<frame.width {
                let v = frame.pixel(x: x, y: y)
                let r = Int((v >> 16) & 0xFF), g = Int((v >> 8) & 0xFF), b = Int(v & 0xFF)
                if g > r + 60 && g > b + 60 { count += 1 }
            }
        }
        return count
    }

    /// The fold takes the canvas, paper and all; a page turn shows both sheets' papers, the
    /// next sheet's from its own picture, and past halfway the leaf's back: every kind, at
    /// every scale.
    func testTheFoldAndThePageTurnShowEachSheetsPaper() {
        let pairs: [(Paper.Kind, Paper.Kind)] = [(.ruled, .squared), (.squared, .dotted), (.dotted, .ruled)]
        for (first, second) in pairs {
            let red = Paper(kind: first, spacing: 20, color: 0xE02020)
            let green = Paper(kind: second, spacing: 16, color: 0x20B020)
            for scale in scales {
                let label = "\(first) over \(second) at \(scale.factor)"
                let book = Sketchbook(sheets: [Sheet(paper: red), Sheet(paper: green)])
                let session = Session(book: book, width: width, height: height, scale: scale)
                drawStroke(session, at: 0)
                session.handle(.touchDown(id: 1, at: Point(x: 100, y: 150)), at: 500)
                session.handle(.touchDown(id: 2, at: Point(x: 300, y: 150)), at: 500)
                session.handle(.touchFrame, at: 500)
                session.handle(.touchMotion(id: 1, to: Point(x: 140, y: 150)), at: 550)
                session.handle(.touchMotion(id: 2, to: Point(x: 260, y: 150)), at: 550)
                session.handle(.touchFrame, at: 550)
                XCTAssertEqual(session.mode, .folding(.pinch))
                _ = session.renderFrame()
                keep(session.frame, "fold-\(first)@\(scale.factor)")
                XCTAssertGreaterThan(reddish(session.frame), 50, "the folded pages show their paper: \(label)")
                XCTAssertEqual(greenish(session.frame), 0, label)
                session.handle(.touchUp(id: 1), at: 600)
                session.handle(.touchUp(id: 2), at: 600)
                session.handle(.touchFrame, at: 600)
                session.advance(to: 3000)
                XCTAssertEqual(session.mode, .idle)

                // A finger from the right edge halfway across: the leaf (this sheet) over the next.
                touchFrame(session, at: 4000, .touchDown(id: 9, at: Point(x: 395, y: 150)))
                for i in 1...5 { touchFrame(session, at: 4000 + Double(i) * 16, .touchMotion(id: 9, to: Point(x: 395 - Double(i) * 40, y: 150))) }
                XCTAssertEqual(session.mode, .turning(.forward))
                _ = session.renderFrame()
                keep(session.frame, "turn-\(first)@\(scale.factor)")
                XCTAssertGreaterThan(reddish(session.frame), 50, "the turning leaf shows its paper: \(label)")
                XCTAssertGreaterThan(greenish(session.frame), 20, "the next sheet shows its paper under the leaf: \(label)")
                // Past halfway the leaf's back shows: the next sheet's paper, the drawing seen through it.
                for i in 6...9 { touchFrame(session, at: 4000 + Double(i) * 16, .touchMotion(id: 9, to: Point(x: 395 - Double(i) * 40, y: 150))) }
                _ = session.renderFrame()
                keep(session.frame, "turn-back-\(first)@\(scale.factor)")
                let left = session.pixelWidth / 2
                XCTAssertGreaterThan(greenish(session.frame, (x: 0..<left, y: 0..<session.pixelHeight)), 20,
                                     "the leaf's back is the next sheet's paper: \(label)")
            }
        }
    }

    // MARK: - The toolbar's paper

    private func tap(_ session: Session, _ name: String, at t: Double) {
        let layout = ToolbarLayout(width: Double(width), height: Double(height))
        guard let rect = name == "handle" ? layout.handle : layout.slot(for: .paper)?.rect else { return XCTFail("no \(name)") }
        let p = Point(x: rect.minX + rect.width / 2, y: rect.minY + rect.height / 2)
        touchFrame(session, at: t, .touchDown(id: 4, at: p))
        touchFrame(session, at: t + 40, .touchUp(id: 4))
    }

    /// Each tap moves the default paper on (plain, ruled, squared, dotted); a sheet without ink
    /// takes it, one undo step each; a drawn sheet keeps its paper while new sheets get the new one.
    func testThePaperControlCyclesTheDefaultAndPapersABlankSheet() {
        let session = Session(width: width, height: height)
        tap(session, "handle", at: 0)
        tap(session, "paper", at: 100)
        XCTAssertEqual(session.paper.kind, .ruled)
        XCTAssertEqual(session.toolbar.paper, .ruled)
        XCTAssertEqual(session.book.sheet.paper.kind, .ruled)
        tap(session, "paper", at: 200)
        XCTAssertEqual(session.book.sheet.paper.kind, .squared)
        _ = session.renderFrame()
        XCTAssertEqual(session.frame.pixel(x: Int(Paper.standardSpacing), y: 10), 0xFF00_0000 | Paper.standardColor, "the canvas shows it")
        session.handle(.undo, at: 300)
        XCTAssertEqual(session.book.sheet.paper.kind, .ruled, "undo takes the sheet's paper back a step")
        XCTAssertEqual(session.paper.kind, .squared, "the default stays as chosen")
        _ = session.renderFrame()
        XCTAssertEqual(session.frame.pixel(x: Int(Paper.standardSpacing), y: 10), white, "no columns on ruled paper")
        session.handle(.redo, at: 400)
        XCTAssertEqual(session.book.sheet.paper.kind, .squared)

        drawStroke(session, at: 1000)
        tap(session, "handle", at: 2000)
        tap(session, "paper", at: 2100)
        XCTAssertEqual(session.paper.kind, .dotted)
        XCTAssertEqual(session.book.sheet.paper.kind, .squared, "a drawn sheet keeps its paper")
        session.handle(.newSheet, at: 2300)
        XCTAssertEqual(session.book.sheets.map(\.paper.kind), [.squared, .dotted], "a new sheet gets the default")
        XCTAssertTrue(session.timeline.map(\.name).contains("control.paper"))
    }

    /// A new book (one blank sheet, nothing to undo) takes the settings' paper without an undo
    /// step; a book with ink keeps its papers.
    func testANewBookTakesTheDefaultPaper() {
        let ruled = Paper(kind: .ruled, spacing: 24)
        let fresh = Session(width: width, height: height)
        fresh.useDefaultPaper(ruled)
        XCTAssertEqual(fresh.book.sheet.paper, ruled)
        XCTAssertNil(fresh.book.nextUndo)
        _ = fresh.renderFrame()
        XCTAssertEqual(fresh.frame.pixel(x: 10, y: 24), 0xFF00_0000 | ruled.color)

        var drawn = Sketchbook()
        drawn.append(Stroke(points: [Point(x: 5, y: 5)]))
        let old = Session(book: drawn, width: width, height: height)
        old.useDefaultPaper(ruled)
        XCTAssertEqual(old.book.sheet.paper, .plain)
        XCTAssertEqual(old.paper, ruled)
    }
}
