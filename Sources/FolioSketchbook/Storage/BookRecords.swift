import FolioGeometry

/// The payloads of `book.folio`'s records (docs/book-format.md): a snapshot of the whole book,
/// or one save's changes to the book as saved before it. A save writes only what changed, so
/// saving a stroke costs about the stroke's size, whatever the book's.
enum BookRecords {
    /// Every count a book may hold; a file that says more is damaged, and a book that holds more
    /// is not saved (the error says which limit).
    static let maximumSheets = 1_000_000
    static let maximumStrokesPerSheet = 10_000_000
    static let maximumPointsPerStroke = 10_000_000
    static let maximumInkWidth = 1000.0

    /// Bits of a stroke's sample channels: what follows its points, in bit order.
    enum Channel {
        /// The pressure curve (three f64) and a u16 pressure per point, in 1/65535 steps.
        static let pressure: UInt8 = 1 << 0
        /// An i16 x, i16 y tilt per point, in 1/256-degree steps within ±90 degrees.
        static let tilt: UInt8 = 1 << 1
        /// The f64 start (Unix seconds) and a u32 offset per point, in milliseconds (`StrokeTimes`).
        static let times: UInt8 = 1 << 2
        static let known = pressure | tilt | times
        static let tiltStepLimit = Int16(PenTilt.range.upperBound * 256)
    }

    /// One change to the book as saved; a change record holds a save's changes in order.
    enum Change: Equatable {
        /// A blank sheet at `index` (0 … the sheet count).
        case insertSheet(index: Int)
        case removeSheet(index: Int)
        /// Keeps the first `count` strokes of sheet `sheet` (undo, or an erased stroke).
        case truncate(sheet: Int, count: Int)
        case append(sheet: Int, strokes: ArraySlice<Stroke>)
        case currentSheet(Int)
        /// Moves strokes of sheet `sheet` in place: each by `Stroke.moved(firstPointTo:)`.
        case move(sheet: Int, moves: [Move])
        /// Gives strokes of sheet `sheet` the colour `color`.
        case recolour(sheet: Int, color: UInt32, indices: [Int])
        /// Gives sheet `sheet` another paper.
        case paper(sheet: Int, paper: Paper)

        var code: UInt8 {
            switch self {
            case .insertSheet: 1
            case .removeSheet: 2
            case .truncate: 3
            case .append: 4
            case .currentSheet: 5
            case .move: 6
            case .recolour: 7
            case .paper: 8
            }
        }
    }

    /// A stroke moved in place: its index, and where its first point goes.
    struct Move: Equatable {
        var index: Int
        var first: Point
    }

    /// Why a book cannot be saved: a count beyond the limits above.
    struct OutOfRange: Error {
        var reason: String
    }

    // MARK: - Writing

    static func snapshot(_ book: Sketchbook) throws(OutOfRange) -> [UInt8] {
        try check(book)
        var out = ByteWriter()
        out.u32(UInt32(book.currentSheet))
        out.u32(UInt32(book.sheets.count))
        for sheet in book.sheets {
            out.u32(UInt32(sheet.strokes.count))
            for stroke in sheet.strokes { write(stroke, to: &out) }
        }
        return out.bytes
    }

    static func payload(_ changes: [Change]) -> [UInt8] {
        var out = ByteWriter()
        out.u32(UInt32(changes.count))
        for change in changes {
            out.u8(change.code)
            switch change {
            case let .insertSheet(index), let .removeSheet(index), let .currentSheet(index):
                out.u32(UInt32(index))
            case let .truncate(sheet, count):
                out.u32(UInt32(sheet))
                out.u32(UInt32(count))
            case let .append(sheet, strokes):
                out.u32(UInt32(sheet))
                out.u32(UInt32(strokes.count))
                for stroke in strokes { write(stroke, to: &out) }
            case let .move(sheet, moves):
                out.u32(UInt32(sheet))
                out.u32(UInt32(moves.count))
                for move in moves {
                    out.u32(UInt32(move.index))
                    out.f64(move.first.x)
                    out.f64(move.first.y)
                }
            case let .recolour(sheet, color, indices):
                out.u32(UInt32(sheet))
                out.u32(color & 0xFF_FFFF)
                out.u32(UInt32(indices.count))
                for index in indices { out.u32(UInt32(index)) }
            case let .paper(sheet, paper):
                out.u32(UInt32(sheet))
                out.u32(paper.kind.code)
                out.f64(paper.spacing)
                out.u32(paper.color)
            }
        }
        return out.bytes
    }

    /// The papers of a snapshot's sheets, as changes to write in a record right after it: the
    /// snapshot's own layout stays as every Folio reads it, so a book whose sheets are all plain
    /// is the same file as before papers, and one with papers is refused by an older Folio
    /// (an unknown change) instead of loading as plain sheets it would save over.
    static func papers(of book: Sketchbook) -> [Change] {
        book.sheets.indices.compactMap { index in
            book.sheets[index].paper == .plain ? nil : .paper(sheet: index, paper: book.sheets[index].paper)
        }
    }

    /// A stroke: kind (0, ink), sample channels, 2 reserved bytes, colour, width, point count,
    /// the points as x, y float64 pairs, then a pen's pressures and tilts (`Channel`).
    private static func write(_ stroke: Stroke, to out: inout ByteWriter) {
        let pressures = stroke.hasPressure ? stroke.pressures : nil
        let tilts = stroke.tilts.flatMap { $0.count == stroke.points.count ? $0 : nil }
        let times = stroke.hasTimes ? stroke.times : nil
        out.u8(0)
        out.u8((pressures == nil ? 0 : Channel.pressure) | (tilts == nil ? 0 : Channel.tilt) | (times == nil ? 0 : Channel.times))
        out.u16(0)
        out.u32(stroke.style.color & 0xFF_FFFF)
        out.f64(stroke.style.width)
        out.u32(UInt32(stroke.points.count))
        out.points(stroke.points)
        if let pressures {
            out.f64(stroke.pressureCurve.minimum)
            out.f64(stroke.pressureCurve.maximum)
            out.f64(stroke.pressureCurve.exponent)
            for p in pressures { out.u16(Stroke.pressureStep(p)) }
        }
        if let tilts {
            for t in tilts {
                out.u16(UInt16(bitPattern: Stroke.tiltStep(t.x)))
                out.u16(UInt16(bitPattern: Stroke.tiltStep(t.y)))
            }
        }
        if let times {
            out.f64(times.start)
            for offset in times.offsets { out.u32(offset) }
        }
    }

    /// Whether `book` fits the limits, so that what is written always reads back.
    static func check(_ book: Sketchbook) throws(OutOfRange) {
        guard book.sheets.count <= maximumSheets else {
            throw OutOfRange(reason: "the book has \(book.sheets.count) sheets; a book holds at most \(maximumSheets)")
        }
        for (index, sheet) in book.sheets.enumerated() {
            guard sheet.strokes.count <= maximumStrokesPerSheet else {
                throw OutOfRange(reason: "sheet \(index + 1) has \(sheet.strokes.count) strokes; a sheet holds at most \(maximumStrokesPerSheet)")
            }
        }
    }

    /// The changes that turn `old` into `new`. Unchanged sheets are found by comparing stroke
    /// arrays, which share storage with the saved book and so compare in constant time.
    static func changes(from old: Sketchbook, to new: Sketchbook) throws(OutOfRange) -> [Change] {
        let a = old.sheets, b = new.sheets
        guard b.count <= maximumSheets else {
            throw OutOfRange(reason: "the book has \(b.count) sheets; a book holds at most \(maximumSheets)")
        }
        var prefix = 0
        func same(_ x: Sheet, _ y: Sheet) -> Bool { x.strokes == y.strokes && x.paper == y.paper }
        while prefix < a.count, prefix < b.count, same(a[prefix], b[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
              same(a[a.count - 1 - suffix], b[b.count - 1 - suffix]) { suffix += 1 }
        let oldMiddle = prefix..<(a.count - suffix), newMiddle = prefix..<(b.count - suffix)
        var changes: [Change] = []
        if oldMiddle.count == newMiddle.count {
            for index in newMiddle {
                if a[index].paper != b[index].paper { changes.append(.paper(sheet: index, paper: b[index].paper)) }
                try changes += strokeChanges(from: a[index].strokes, to: b[index].strokes, sheet: index)
            }
        } else {
            // The new sheets go in before the old ones go out: the book never has no sheet.
            for (offset, index) in newMiddle.enumerated() {
                changes.append(.insertSheet(index: prefix + offset))
                if b[index].paper != .plain { changes.append(.paper(sheet: prefix + offset, paper: b[index].paper)) }
                try changes += strokeChanges(from: [], to: b[index].strokes, sheet: prefix + offset)
            }
            for _ in oldMiddle { changes.append(.removeSheet(index: prefix + newMiddle.count)) }
        }
        if new.currentSheet != old.currentSheet || a.count != b.count { changes.append(.currentSheet(new.currentSheet)) }
        return changes
    }

    /// A sheet's changes: strokes moved or recoloured in place (a lasso) are said as such, in a
    /// few bytes each, whatever follows them; from the first stroke that differs otherwise, the
    /// sheet is cut there and the rest appended.
    private static func strokeChanges(from old: [Stroke], to new: [Stroke], sheet: Int) throws(OutOfRange) -> [Change] {
        guard new.count <= maximumStrokesPerSheet else {
            throw OutOfRange(reason: "sheet \(sheet + 1) has \(new.count) strokes; a sheet holds at most \(maximumStrokesPerSheet)")
        }
        var common = 0
        var moves: [Move] = []
        var recolours: [(color: UInt32, indices: [Int])] = []
        while common < old.count, common < new.count {
            let a = old[common], b = new[common]
            if a != b {
                let moved = a.points != b.points
                guard !moved || a.isMove(to: b) else { break }
                if moved { moves.append(Move(index: common, first: b.points[0])) }
                if a.style.color != b.style.color {
                    if let group = recolours.firstIndex(where: { $0.color == b.style.color }) {
                        recolours[group].indices.append(common)
                    } else {
                        recolours.append((b.style.color, [common]))
                    }
                }
            }
            common += 1
        }
        var changes: [Change] = []
        if !moves.isEmpty { changes.append(.move(sheet: sheet, moves: moves)) }
        for group in recolours { changes.append(.recolour(sheet: sheet, color: group.color, indices: group.indices)) }
        if common < old.count { changes.append(.truncate(sheet: sheet, count: common)) }
        if common < new.count { changes.append(.append(sheet: sheet, strokes: new[common...])) }
        return changes
    }

    // MARK: - Reading

    /// The book being rebuilt from records, checked as each change applies. Every change costs
    /// O(log n) in the sheets plus the strokes it adds or removes, so reading a book costs in
    /// proportion to its file, whatever its records do.
    struct Pages {
        /// Each sheet's strokes and paper, in a tree: a sheet inserted or removed anywhere moves no other.
        var sheets = PositionTree<Page>()
        var current = 0

        var book: Sketchbook {
            Sketchbook(sheets: sheets.map { Sheet(strokes: $0.strokes, paper: $0.paper) }, currentSheet: current)
        }
    }

    /// A sheet as read so far.
    struct Page {
        var strokes: [Stroke] = []
        /// Plain unless a change 8 says otherwise: books from before papers are plain.
        var paper = Paper.plain
    }

    /// Why a payload is damaged, said without the file and offset (the caller adds them).
    struct Damage: Error {
        var reason: String
    }

    static func readSnapshot(_ reader: inout ByteReader) throws(Damage) -> Pages {
        var pages = Pages()
        let current = try count(&reader, "current sheet", below: maximumSheets)
        let sheetCount = try count(&reader, "sheet count", upTo: maximumSheets)
        guard sheetCount >= 1 else { throw Damage(reason: "the book has no sheets") }
        // Each sheet takes at least its 4-byte count: a larger claim is damage, before allocating.
        guard sheetCount <= reader.remaining / 4 else { throw Damage(reason: doNotFit(sheetCount, "sheet")) }
        var sheets: [Page] = []
        sheets.reserveCapacity(sheetCount)
        for index in 0..<sheetCount {
            sheets.append(Page(strokes: try strokes(&reader, sheet: index)))
        }
        pages.sheets = PositionTree(sheets)
        guard current < sheetCount else { throw Damage(reason: "current sheet \(current) names no sheet (the book has \(sheetCount), from 0)") }
        pages.current = current
        try end(reader)
        return pages
    }

    static func applyChanges(_ reader: inout ByteReader, to pages: inout Pages) throws(Damage) {
        let changeCount = try count(&reader, "change count", upTo: Int(UInt32.max))
        guard changeCount <= reader.remaining / 5 else { throw Damage(reason: doNotFit(changeCount, "change")) }
        for number in 0..<changeCount {
            // Said only when a change is damaged: building it for every change costs more than the change.
            func place() -> String { "change \(number + 1)" }
            let code = try byte(&reader, place())
            switch code {
            case 1:
                let index = try count(&reader, "\(place()): sheet index", upTo: pages.sheets.count)
                guard pages.sheets.count < maximumSheets else { throw Damage(reason: "\(place()): more than \(maximumSheets) sheets") }
                pages.sheets.insert(Page(), at: index)
            case 2:
                let index = try count(&reader, "\(place()): sheet index", below: pages.sheets.count)
                guard pages.sheets.count > 1 else { throw Damage(reason: "\(place()): removes the only sheet") }
                pages.sheets.remove(at: index)
            case 3:
                let sheet = try count(&reader, "\(place()): sheet index", below: pages.sheets.count)
                let keep = try count(&reader, "\(place()): stroke count", upTo: pages.sheets.element(at: sheet).strokes.count)
                pages.sheets.update(at: sheet) { $0.strokes.removeSubrange(keep...) }
            case 4:
                let sheet = try count(&reader, "\(place()): sheet index", below: pages.sheets.count)
                let added = try strokes(&reader, sheet: sheet, existing: pages.sheets.element(at: sheet).strokes.count)
                pages.sheets.update(at: sheet) { $0.strokes.append(contentsOf: added) }
            case 5:
                pages.current = try count(&reader, "\(place()): current sheet", below: pages.sheets.count)
            case 6:
                try applyMove(&reader, to: &pages, place())
            case 7:
                try applyRecolour(&reader, to: &pages, place())
            case 8:
                try applyPaper(&reader, to: &pages, place())
            default:
                throw Damage(reason: "\(place()): unknown change \(code) (written by a newer Folio?)")
            }
        }
        guard pages.current < pages.sheets.count else {
            throw Damage(reason: "current sheet \(pages.current) names no sheet (the book has \(pages.sheets.count), from 0)")
        }
        try end(reader)
    }

    /// Change 6: a sheet, a count, then per stroke its index (ascending) and its first point's
    /// new place; the stroke moves as `Stroke.moved(firstPointTo:)` moves it. Costs the strokes
    /// it moves, whatever the sheet holds.
    private static func applyMove(_ reader: inout ByteReader, to pages: inout Pages, _ place: @autoclosure () -> String) throws(Damage) {
        let sheet = try count(&reader, "\(place()): sheet index", below: pages.sheets.count)
        let strokeCount = pages.sheets.update(at: sheet) { $0.strokes.count }
        let moveCount = try count(&reader, "\(place()): moved stroke count", upTo: strokeCount)
        guard moveCount <= reader.remaining / 20 else { throw Damage(reason: "\(place()): \(doNotFit(moveCount, "moved stroke"))") }
        var moves: [Move] = []
        moves.reserveCapacity(moveCount)
        for _ in 0..<moveCount {
            let index = try strokeIndex(&reader, below: strokeCount, after: moves.last?.index, place())
            moves.append(Move(index: index, first: Point(x: try double(&reader, place()), y: try double(&reader, place()))))
        }
        let outside: String? = pages.sheets.update(at: sheet) { page in
            for move in moves {
                let moved = page.strokes[move.index].moved(firstPointTo: move.first)
                guard moved.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && SurfaceLimits.isWithinReach($0) }) else {
                    return "stroke \(move.index + 1) moved to \(move.first) leaves ±\(Int(SurfaceLimits.farthestCoordinate)) logical pixels"
                }
                page.strokes[move.index] = moved
            }
            return nil
        }
        if let outside { throw Damage(reason: "\(place()): \(outside)") }
    }

    /// Change 7: a sheet, a colour, a count, then that many stroke indices (ascending).
    private static func applyRecolour(_ reader: inout ByteReader, to pages: inout Pages, _ place: @autoclosure () -> String) throws(Damage) {
        let sheet = try count(&reader, "\(place()): sheet index", below: pages.sheets.count)
        let color = try word(&reader, place())
        guard color <= 0xFF_FFFF else { throw Damage(reason: "\(place()): colour 0x\(String(color, radix: 16)) is not 0xRRGGBB") }
        let strokeCount = pages.sheets.update(at: sheet) { $0.strokes.count }
        let indexCount = try count(&reader, "\(place()): recoloured stroke count", upTo: strokeCount)
        guard indexCount <= reader.remaining / 4 else { throw Damage(reason: "\(place()): \(doNotFit(indexCount, "recoloured stroke"))") }
        var indices: [Int] = []
        indices.reserveCapacity(indexCount)
        for _ in 0..<indexCount {
            indices.append(try strokeIndex(&reader, below: strokeCount, after: indices.last, place()))
        }
        pages.sheets.update(at: sheet) { page in
            for index in indices { page.strokes[index].style.color = color }
        }
    }

    /// Change 8: a sheet, its paper's kind (0 plain, 1 ruled, 2 squared, 3 dotted), spacing
    /// (f64, logical px within `Paper.spacingRange`) and colour (0x00RRGGBB).
    private static func applyPaper(_ reader: inout ByteReader, to pages: inout Pages, _ place: @autoclosure () -> String) throws(Damage) {
        let sheet = try count(&reader, "\(place()): sheet index", below: pages.sheets.count)
        let code = try word(&reader, place())
        guard let kind = Paper.Kind(code: code) else {
            throw Damage(reason: "\(place()): a paper of unknown kind \(code) (written by a newer Folio?)")
        }
        let spacing = try double(&reader, place())
        guard Paper.spacingRange.contains(spacing) else {
            throw Damage(reason: "\(place()): paper spacing \(spacing) is not within \(Paper.spacingRange.lowerBound)-\(Paper.spacingRange.upperBound) logical pixels")
        }
        let color = try word(&reader, place())
        guard color <= 0xFF_FFFF else { throw Damage(reason: "\(place()): paper colour 0x\(String(color, radix: 16)) is not 0xRRGGBB") }
        let paper = Paper(kind: kind, spacing: spacing, color: color)
        // Plain paper is one paper: any other spacing or colour with it would not read back the same.
        guard paper.forSheet == paper else {
            throw Damage(reason: "\(place()): plain paper with spacing \(spacing) and colour 0x\(String(color, radix: 16))")
        }
        pages.sheets.update(at: sheet) { $0.paper = paper }
    }

    /// One of a change's stroke indices: below `strokeCount`, and after `previous` (they come
    /// ascending, so no stroke is changed twice).
    private static func strokeIndex(_ reader: inout ByteReader, below strokeCount: Int, after previous: Int?,
                                    _ place: @autoclosure () -> String) throws(Damage) -> Int {
        let index = try count(&reader, "\(place()): stroke index", below: strokeCount)
        if let previous, index <= previous {
            throw Damage(reason: "\(place()): stroke index \(index) does not follow \(previous)")
        }
        return index
    }

    /// A stroke count and that many strokes, for sheet `sheet` (0-based) holding `existing` already.
    private static func strokes(_ reader: inout ByteReader, sheet: Int, existing: Int = 0) throws(Damage) -> [Stroke] {
        let strokeCount = try count(&reader, "sheet \(sheet + 1): stroke count", upTo: maximumStrokesPerSheet - existing)
        // Each stroke takes at least its 20 bytes of fields: a larger claim is damage. A stroke
        // that is shorter for another reason (no points) is said as such by `stroke`.
        guard strokeCount <= reader.remaining / minimumStrokeFields else {
            throw Damage(reason: "sheet \(sheet + 1): \(doNotFit(strokeCount, "stroke"))")
        }
        var strokes: [Stroke] = []
        // A whole stroke takes at least 36 bytes (its fields and one point).
        strokes.reserveCapacity(min(strokeCount, reader.remaining / (minimumStrokeFields + 16)))
        for index in 0..<strokeCount {
            strokes.append(try stroke(&reader, place: "sheet \(sheet + 1), stroke \(existing + index + 1)"))
        }
        return strokes
    }

    /// A stroke's fields before its points: kind, channels, reserved, colour, width, point count.
    private static let minimumStrokeFields = 20

    private static func stroke(_ reader: inout ByteReader, place: @autoclosure () -> String) throws(Damage) -> Stroke {
        let kind = try byte(&reader, place())
        let channels = try byte(&reader, place())
        let reserved = try half(&reader, place())
        // Only what this Folio does not know names a newer one; reserved bytes are always zero.
        guard kind == 0, channels & ~Channel.known == 0 else {
            throw Damage(reason: "\(place()): a stroke of kind \(kind) with sample channels \(channels) (written by a newer Folio?)")
        }
        guard reserved == 0 else { throw Damage(reason: "\(place()): reserved bytes 0x\(String(reserved, radix: 16)) are not zero") }
        let color = try word(&reader, place())
        guard color <= 0xFF_FFFF else { throw Damage(reason: "\(place()): colour 0x\(String(color, radix: 16)) is not 0xRRGGBB") }
        let width = try double(&reader, place())
        guard width.isFinite, width > 0, width <= maximumInkWidth else { throw Damage(reason: "\(place()): ink width \(width)") }
        let pointCount = try count(&reader, "\(place()): point count", upTo: maximumPointsPerStroke)
        guard pointCount >= 1 else { throw Damage(reason: "\(place()) has no points") }
        guard pointCount <= reader.remaining / 16 else { throw Damage(reason: "\(place()): \(doNotFit(pointCount, "point"))") }
        guard let points = try? reader.points(pointCount) else { throw Damage(reason: "\(place()): the record ends inside it") }
        for (index, p) in points.enumerated() where !(p.x.isFinite && p.y.isFinite && SurfaceLimits.isWithinReach(p)) {
            throw Damage(reason: "\(place()): point \(index + 1) (\(p.x), \(p.y)) is not within "
                         + "±\(Int(SurfaceLimits.farthestCoordinate)) logical pixels")
        }
        var stroke = Stroke(points: points, style: InkStyle(width: width, color: color))
        if channels & Channel.pressure != 0 {
            stroke.pressureCurve = try pressureCurve(&reader, place())
            guard pointCount <= reader.remaining / 2 else { throw Damage(reason: "\(place()): \(doNotFit(pointCount, "pressure"))") }
            var pressures: [Double] = []
            pressures.reserveCapacity(pointCount)
            for _ in 0..<pointCount { pressures.append(Double(try half(&reader, place())) / 65535) }
            stroke.pressures = pressures
        }
        if channels & Channel.tilt != 0 {
            guard pointCount <= reader.remaining / 4 else { throw Damage(reason: "\(place()): \(doNotFit(pointCount, "tilt"))") }
            var tilts: [PenTilt] = []
            tilts.reserveCapacity(pointCount)
            for index in 0..<pointCount {
                let x = Int16(bitPattern: try half(&reader, place())), y = Int16(bitPattern: try half(&reader, place()))
                guard abs(Int(x)) <= Int(Channel.tiltStepLimit), abs(Int(y)) <= Int(Channel.tiltStepLimit) else {
                    throw Damage(reason: "\(place()): tilt \(Double(x) / 256), \(Double(y) / 256) at point \(index + 1) is beyond ±90 degrees")
                }
                tilts.append(PenTilt(x: Double(x) / 256, y: Double(y) / 256))
            }
            stroke.tilts = tilts
        }
        if channels & Channel.times != 0 { stroke.times = try times(&reader, points: pointCount, place()) }
        return stroke
    }

    /// A stroke's times: the start within `StrokeTimes.starts`, then a u32 offset per point, the
    /// first 0 and none less than the one before.
    private static func times(_ reader: inout ByteReader, points pointCount: Int, _ place: @autoclosure () -> String) throws(Damage) -> StrokeTimes {
        let start = try double(&reader, place())
        guard StrokeTimes.starts.contains(start) else {
            throw Damage(reason: "\(place()): start time \(start) is not within 0 to \(Int(StrokeTimes.starts.upperBound)) seconds")
        }
        guard pointCount <= reader.remaining / 4 else { throw Damage(reason: "\(place()): \(doNotFit(pointCount, "time"))") }
        var offsets: [UInt32] = []
        offsets.reserveCapacity(pointCount)
        for index in 0..<pointCount {
            let offset = try word(&reader, place())
            guard offset >= (offsets.last ?? 0) else {
                throw Damage(reason: "\(place()): point \(index + 1) at \(offset) ms comes before point \(index) at \(offsets.last ?? 0) ms")
            }
            guard index > 0 || offset == 0 else { throw Damage(reason: "\(place()): point 1 is at \(offset) ms, not 0") }
            offsets.append(offset)
        }
        return StrokeTimes(start: start, offsets: offsets)
    }

    /// A pressure stroke's curve: widths within `PressureCurve.widths`, the minimum at most the
    /// maximum, the exponent within `PressureCurve.exponents`.
    private static func pressureCurve(_ reader: inout ByteReader, _ place: @autoclosure () -> String) throws(Damage) -> PressureCurve {
        let minimum = try double(&reader, place()), maximum = try double(&reader, place()), exponent = try double(&reader, place())
        guard PressureCurve.widths.contains(minimum), PressureCurve.widths.contains(maximum), minimum <= maximum,
              PressureCurve.exponents.contains(exponent) else {
            throw Damage(reason: "\(place()): pressure curve \(minimum) to \(maximum) px, exponent \(exponent), is out of range")
        }
        return PressureCurve(minimum: minimum, maximum: maximum, exponent: exponent)
    }

    private static func count(_ reader: inout ByteReader, _ what: @autoclosure () -> String, upTo limit: Int) throws(Damage) -> Int {
        let value = Int(try word(&reader, what()))
        guard value <= limit else { throw Damage(reason: "\(what()) \(value) is beyond \(limit)") }
        return value
    }

    private static func count(_ reader: inout ByteReader, _ what: @autoclosure () -> String, below limit: Int) throws(Damage) -> Int {
        let value = Int(try word(&reader, what()))
        guard value < limit else { throw Damage(reason: "\(what()) \(value) is not below \(limit)") }
        return value
    }

    private static func byte(_ reader: inout ByteReader, _ what: @autoclosure () -> String) throws(Damage) -> UInt8 {
        do { return try reader.u8() } catch { throw Damage(reason: "\(what()): the record ends early") }
    }

    private static func half(_ reader: inout ByteReader, _ what: @autoclosure () -> String) throws(Damage) -> UInt16 {
        do { return try reader.u16() } catch { throw Damage(reason: "\(what()): the record ends early") }
    }

    private static func word(_ reader: inout ByteReader, _ what: @autoclosure () -> String) throws(Damage) -> UInt32 {
        do { return try reader.u32() } catch { throw Damage(reason: "\(what()): the record ends early") }
    }

    private static func double(_ reader: inout ByteReader, _ what: @autoclosure () -> String) throws(Damage) -> Double {
        do { return try reader.f64() } catch { throw Damage(reason: "\(what()): the record ends early") }
    }

    /// "1 stroke does not fit in the record", "5 strokes do not …".
    private static func doNotFit(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun) does not fit in the record" : "\(count) \(noun)s do not fit in the record"
    }

    private static func end(_ reader: ByteReader) throws(Damage) {
        guard reader.remaining == 0 else { throw Damage(reason: "\(reader.remaining) bytes follow the record's last field") }
    }
}
