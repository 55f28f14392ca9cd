import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import XCTest

/// Blue ink on white paper: a pixel's ink coverage is exactly 255 − its red channel.
private let white: UInt32 = 0xFFFF_FFFF
private let blue: UInt32 = 0xFF00_00FF

private func coverage(_ pixel: UInt32) -> Int { 255 - Int((pixel >> 16) & 0xFF) }

private func paper(_ width: Int, _ height: Int) -> Bitmap { Bitmap(width: width, height: height, color: white) }

private func draw(_ path: [PathElement], on bitmap: Bitmap, scale: Double = 1, clip: PixelRect? = nil,
                  rasterizer: InkRasterizer = InkRasterizer()) {
    rasterizer.draw(path, style: .standard, into: bitmap, scale: scale, clip: clip ?? bitmap.bounds)
}

private func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [PathElement] {
    [.move(to: Point(x: x0, y: y0)), .line(to: Point(x: x1, y: y1))]
}

/// Pixels that differ between two bitmaps of one size, as "(x, y) a b" lines (at most a few).
private func differences(_ a: Bitmap, _ b: Bitmap, limit: Int = 5) -> [String] {
    var found: [String] = []
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
            if found.count < limit {
                found.append("(\(x), \(y)) \(String(a.pixel(x: x, y: y), radix: 16)) \(String(b.pixel(x: x, y: y), radix: 16))")
            }
        }
    }
    return found
}

/// A wandering stroke from a fixed seed: loops, sharp turns, slow and fast stretches.
private func wanderingStroke(seed: UInt64, count: Int, in size: Size) -> Stroke {
    var generator = SplitMix(seed: seed)
    var p = Point(x: size.width / 2, y: size.height / 2)
    var heading = 0.0
    var points = [p]
    for _ in 0..<count {
        heading += generator.next(in: -1.2...1.2)
        let step = generator.next(in: 0.3...14)
        p = Point(x: min(max(p.x + cos(heading) * step, 5), size.width - 5),
                  y: min(max(p.y + sin(heading) * step, 5), size.height - 5))
        points.append(p)
    }
    return Stroke(points: points)
}

/// The path as a polyline of 16 straight pieces per curve (ample for curves this short).
private func finePolyline(_ path: [PathElement]) -> [Point] {
    var points: [Point] = []
    var pen = Point.zero
    for element in path {
        switch element {
        case let .move(p): points.append(p)
        case let .line(p): points.append(p)
        case let .quad(c, p):
            for i in 1...16 {
                let t = Double(i) / 16, mt = 1 - t
                points.append(pen * (mt * mt) + c * (2 * mt * t) + p * (t * t))
            }
        case let .curve(c1, c2, p):
            for i in 1...16 {
                let t = Double(i) / 16, mt = 1 - t
                points.append(pen * (mt * mt * mt) + c1 * (3 * mt * mt * t) + c2 * (3 * mt * t * t) + p * (t * t * t))
            }
        }
        pen = element.endPoint
    }
    return points
}

private func distanceToPolyline(_ p: Point, _ polyline: [Point]) -> Double {
    guard var best = polyline.first.map({ p.distance(to: $0) }) else { return .infinity }
    for (a, b) in zip(polyline, polyline.dropFirst()) {
        let d = b - a, lengthSquared = d.x * d.x + d.y * d.y
        let t = lengthSquared > 0 ? min(1, max(0, ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / lengthSquared)) : 0
        best = min(best, p.distance(to: a + d * t))
    }
    return best
}

/// A circle from four cubics, starting and ending at its rightmost point.
private func circle(centre c: Point, radius r: Double, laps: Int = 1) -> [PathElement] {
    let k = 0.5523 * r
    var path: [PathElement] = [.move(to: Point(x: c.x + r, y: c.y))]
    for _ in 0..<laps {
        path += [
            .curve(control1: Point(x: c.x + r, y: c.y + k), control2: Point(x: c.x + k, y: c.y + r), to: Point(x: c.x, y: c.y + r)),
            .curve(control1: Point(x: c.x - k, y: c.y + r), control2: Point(x: c.x - r, y: c.y + k), to: Point(x: c.x - r, y: c.y)),
            .curve(control1: Point(x: c.x - r, y: c.y - k), control2: Point(x: c.x - k, y: c.y - r), to: Point(x: c.x, y: c.y - r)),
            .curve(control1: Point(x: c.x + k, y: c.y - r), control2: Point(x: c.x + r, y: c.y - k), to: Point(x: c.x + r, y: c.y)),
        ]
    }
    return path
}

struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func nextBits() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(nextBits() >> 11) / Double(1 << 53)
    }
}

final class InkRasterizerTests: XCTestCase {
    // MARK: - Width and colour

    func testHorizontalStrokeIsSixPixelsWideAtScaleOne() {
        let bitmap = paper(100, 40)
        draw(line(20, 20, 80, 20), on: bitmap)
        // The line's edges fall on pixel rows 17 and 23: six solid rows, nothing else.
        for y in 0..<40 {
            let expected = (17..<23).contains(y) ? blue : white
            XCTAssertEqual(bitmap.pixel(x: 50, y: y), expected, "row \(y)")
        }
        XCTAssertEqual(bitmap.pixel(x: 2, y: 20), white)
        XCTAssertEqual(bitmap.pixel(x: 97, y: 20), white)
    }

    func testCoverageAcrossTheLineAddsUpToItsWidth() {
        for (scale, width) in [(1.0, 6.0), (2.0, 12.0), (1.5, 9.0)] {
            for offset in [0.0, 0.25, 0.5, 0.8] {
                let bitmap = paper(Int(100 * scale), Int(40 * scale))
                draw(line(20, 20 + offset, 80, 20 + offset), on: bitmap, scale: scale)
                let column = Int(50 * scale)
                let profile = (0..<bitmap.height).map { coverage(bitmap.pixel(x: column, y: $0)) }
                let total = Double(profile.reduce(0, +)) / 255
                XCTAssertEqual(total, width, accuracy: 0.05, "scale \(scale), offset \(offset): \(profile)")
                let solid = profile.filter { $0 == 255 }.count
                XCTAssertGreaterThanOrEqual(solid, Int(width) - 1, "scale \(scale), offset \(offset)")
                XCTAssertLessThanOrEqual(profile.filter { $0 > 0 }.count, Int(width) + 1)
                // Solid pixels are exactly the ink colour.
                for y in 0..<bitmap.height where profile[y] == 255 { XCTAssertEqual(bitmap.pixel(x: column, y: y), blue) }
            }
        }
    }

    func testDiagonalStrokeHasTheSameWidth() {
        let bitmap = paper(120, 120)
        draw(line(10, 10, 110, 110), on: bitmap)
        // Along a row, a 45° line of width 6 spans 6·√2 pixels.
        let total = Double((0..<120).map { coverage(bitmap.pixel(x: $0, y: 60)) }.reduce(0, +)) / 255
        XCTAssertEqual(total, 6 * 2.0.squareRoot(), accuracy: 0.1)
    }

    func testInkTakesTheStyleColour() {
        let bitmap = paper(60, 30)
        InkRasterizer().draw(line(10, 15, 50, 15), style: InkStyle(width: 6, color: 0xCC3311), into: bitmap,
                             scale: 1, clip: bitmap.bounds)
        XCTAssertEqual(bitmap.pixel(x: 30, y: 15), 0xFFCC_3311)
    }

    // MARK: - Caps, joins, dots

    func testRoundCaps() {
        let bitmap = paper(100, 40)
        draw(line(20, 20, 80, 20), on: bitmap)
        // Beyond the end, within the radius, the cap is inked: pixel [81, 82]×[19, 20] lies inside it.
        XCTAssertEqual(bitmap.pixel(x: 81, y: 19), blue)
        XCTAssertEqual(bitmap.pixel(x: 81, y: 20), blue)
        XCTAssertGreaterThan(coverage(bitmap.pixel(x: 82, y: 19)), 128)
        XCTAssertGreaterThan(coverage(bitmap.pixel(x: 17, y: 20)), 128)
        // The corners a square cap would fill stay almost white: only a sliver of the circle reaches them.
        for (x, y) in [(82, 22), (82, 17), (17, 22), (17, 17)] {
            XCTAssertLessThan(coverage(bitmap.pixel(x: x, y: y)), 24, "corner pixel (\(x), \(y))")
        }
        XCTAssertEqual(bitmap.pixel(x: 83, y: 20), white)
        XCTAssertEqual(bitmap.pixel(x: 16, y: 20), white)
    }

    func testTapMakesARoundDotOfTheInkWidth() {
        for scale in [1.0, 2.0] {
            let bitmap = paper(40 * Int(scale), 40 * Int(scale))
            draw([.move(to: Point(x: 20, y: 20))], on: bitmap, scale: scale)
            let radius = 3 * scale
            var area = 0.0
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let c = coverage(bitmap.pixel(x: x, y: y))
                    area += Double(c) / 255
                    let distance = Point(x: Double(x) + 0.5, y: Double(y) + 0.5).distance(to: Point(x: 20 * scale, y: 20 * scale))
                    if distance > radius + 0.75 { XCTAssertEqual(c, 0, "(\(x), \(y)) outside the dot") }
                    if distance < radius - 0.75 { XCTAssertEqual(c, 255, "(\(x), \(y)) inside the dot") }
                }
            }
            XCTAssertEqual(area, Double.pi * radius * radius, accuracy: 0.03 * Double.pi * radius * radius)
        }
    }

    func testStrokeThatNeverMovesIsADotToo() {
        let tap = paper(40, 40), still = paper(40, 40)
        draw([.move(to: Point(x: 20, y: 20))], on: tap)
        draw(Stroke(points: [Point(x: 20, y: 20), Point(x: 20, y: 20)]).path, on: still)
        XCTAssertEqual(differences(tap, still), [])
        XCTAssertEqual(still.pixel(x: 20, y: 20), blue)
    }

    func testSharpTurnHasARoundJoin() {
        let bitmap = paper(100, 100)
        // Out along y = 50 and straight back up: the outside of the turn is a half disc around (70, 50).
        draw([.move(to: Point(x: 20, y: 50)), .line(to: Point(x: 70, y: 50)), .line(to: Point(x: 70, y: 10))], on: bitmap)
        XCTAssertEqual(bitmap.pixel(x: 71, y: 51), blue)
        XCTAssertLessThan(coverage(bitmap.pixel(x: 72, y: 52)), 24, "a miter corner would fill (72, 52)")
        XCTAssertEqual(bitmap.pixel(x: 74, y: 54), white)
    }

    // MARK: - One union, no seams

    func testManySmallPiecesLookLikeOneLine() {
        let single = paper(100, 40), pieces = paper(100, 40)
        draw(line(20, 20.3, 80, 20.3), on: single)
        var path: [PathElement] = [.move(to: Point(x: 20, y: 20.3))]
        var x = 20.0
        while x < 80 { x = min(80, x + 0.37); path.append(.line(to: Point(x: x, y: 20.3))) }
        draw(path, on: pieces)
        for y in 0..<40 {
            for x in 0..<100 {
                let a = coverage(single.pixel(x: x, y: y)), b = coverage(pieces.pixel(x: x, y: y))
                // Gently bending pieces tile the line exactly: neither doubled edges nor seams.
                XCTAssertEqual(b, a, accuracy: 1, "(\(x), \(y))")
                if a == 255 && (18...22).contains(y) { XCTAssertEqual(b, 255, "(\(x), \(y)) inside the line") }
            }
        }
    }

    func testRetracingAStrokeDoesNotDarkenIt() {
        let once = paper(100, 40), thrice = paper(100, 40)
        draw(line(20, 20.4, 80, 20.4), on: once)
        draw([.move(to: Point(x: 20, y: 20.4)), .line(to: Point(x: 80, y: 20.4)),
              .line(to: Point(x: 20, y: 20.4)), .line(to: Point(x: 80, y: 20.4))], on: thrice)
        for y in 0..<40 {
            for x in 0..<100 {
                XCTAssertEqual(coverage(thrice.pixel(x: x, y: y)), coverage(once.pixel(x: x, y: y)), accuracy: 1, "(\(x), \(y))")
            }
        }
    }

    func testGoingRoundACircleAgainDoesNotDarkenIt() {
        // Two laps and three: the same start and end, and a lap more over the same ink.
        for (radius, scale) in [(40.0, 1.0), (7.0, 1.0), (4.0, 2.0), (2.5, 1.0)] {
            let once = paper(Int(100 * scale), Int(100 * scale)), twice = paper(Int(100 * scale), Int(100 * scale))
            draw(circle(centre: Point(x: 50, y: 50), radius: radius, laps: 2), on: once, scale: scale)
            draw(circle(centre: Point(x: 50, y: 50), radius: radius, laps: 3), on: twice, scale: scale)
            for y in 0..<once.height {
                for x in 0..<once.width {
                    XCTAssertEqual(coverage(twice.pixel(x: x, y: y)), coverage(once.pixel(x: x, y: y)), accuracy: 1,
                                   "(\(x), \(y)), circle of radius \(radius) at scale \(scale)")
                }
            }
        }
    }

    func testCurvedStrokeInteriorIsSolidInk() {
        let c = Point(x: 60, y: 60)
        let path = circle(centre: c, radius: 40)
        for scale in [1.0, 2.0] {
            let bitmap = paper(120 * Int(scale), 120 * Int(scale))
            draw(path, on: bitmap, scale: scale)
            var solid = 0
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let centre = Point(x: (Double(x) + 0.5) / scale, y: (Double(y) + 0.5) / scale)
                    // Distance from the ring's centre line, in buffer pixels.
                    let off = abs(centre.distance(to: c) - 40) * scale
                    let pixel = bitmap.pixel(x: x, y: y)
                    if off <= 3 * scale - 1 {
                        XCTAssertEqual(pixel, blue, "(\(x), \(y)) is inside the ink")
                        solid += 1
                    }
                    if off >= 3 * scale + 1 { XCTAssertEqual(pixel, white, "(\(x), \(y)) is outside the ink") }
                }
            }
            XCTAssertGreaterThan(solid, Int(2 * Double.pi * 40 * scale * (6 * scale - 2) * 0.9))
        }
    }

    func testCoverageMatchesAnIndependentReference() {
        for (seed, scale) in [(11 as UInt64, 1.0), (12, 2.0), (13, 1.5)] {
            let stroke = wanderingStroke(seed: seed, count: 9, in: Size(width: 40, height: 40))
            let (worstLighter, worstDarker, mean) = compareWithReference(stroke, scale: scale)
            XCTAssertLessThanOrEqual(max(worstLighter, worstDarker), 40, "seed \(seed), scale \(scale)")
            XCTAssertLessThan(mean, 4, "seed \(seed), scale \(scale)")
        }
    }

    func testStrokeThatTouchesItselfIsNeverDarkerThanTheReference() {
        // A slow finger (points half a pixel apart) along a tight curl, and a spiral whose turns
        // touch. Where two parts of one stroke share a pixel from opposite sides, the max merge
        // is lighter than the true union (a faint line where the parts meet); it is never darker.
        let curl = Stroke(points: (0..<60).map { i in Point(x: 20 + 12 * cos(Double(i) / 12), y: 20 + 9 * sin(Double(i) / 9)) })
        let spiral = Stroke(points: (0..<50).map { i in
            let a = Double(i) / 4
            return Point(x: 20 + (2 + a) * cos(a), y: 20 + (2 + a) * sin(a))
        })
        for stroke in [curl, spiral] {
            let (_, worstDarker, _) = compareWithReference(stroke, scale: 1)
            XCTAssertLessThanOrEqual(worstDarker, 40)
        }
    }

    /// Compares a stroke's ink with a reference that uses no pixman and no polygons: the path as
    /// a fine polyline, and per pixel the share of 8×8 samples within the ink's radius of it. Its
    /// sampling is coarser than pixman's, so single pixels may differ by an eighth of a pixel.
    /// Returns how much lighter and darker the ink is at worst, and the mean difference on ink.
    private func compareWithReference(_ stroke: Stroke, scale: Double) -> (lighter: Int, darker: Int, mean: Double) {
        let bitmap = paper(Int(40 * scale), Int(40 * scale))
        draw(stroke.path, on: bitmap, scale: scale)
        let polyline = finePolyline(stroke.path).map { $0 * scale }
        let radius = stroke.style.width / 2 * scale
        var lighter = 0, darker = 0, total = 0, counted = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let distance = distanceToPolyline(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), polyline)
                var expected = distance < radius - 0.75 ? 255 : 0
                if abs(distance - radius) <= 0.75 {
                    var inside = 0
                    for sy in 0..<8 {
                        for sx in 0..<8 {
                            let sample = Point(x: Double(x) + (Double(sx) + 0.5) / 8, y: Double(y) + (Double(sy) + 0.5) / 8)
                            if distanceToPolyline(sample, polyline) <= radius { inside += 1 }
                        }
                    }
                    expected = inside * 255 / 64
                }
                let actual = coverage(bitmap.pixel(x: x, y: y))
                lighter = max(lighter, expected - actual)
                darker = max(darker, actual - expected)
                if expected > 0 || actual > 0 { total += abs(expected - actual); counted += 1 }
            }
        }
        return (lighter, darker, Double(total) / Double(max(counted, 1)))
    }

    // MARK: - Clipping

    func testDrawingThroughClipsGivesExactlyTheWholeStroke() {
        for scale in [1.0, 2.0] {
            let stroke = wanderingStroke(seed: 7, count: 120, in: Size(width: 160, height: 120))
            let width = 160 * Int(scale), height = 120 * Int(scale)
            let whole = paper(width, height)
            draw(stroke.path, on: whole, scale: scale)
            // Two halves at an odd column, and a grid of uneven tiles, each drawn with a fresh scratch.
            let halves = paper(width, height), tiles = paper(width, height)
            let rasterizer = InkRasterizer()
            draw(stroke.path, on: halves, scale: scale, clip: PixelRect(x: 0, y: 0, width: 77, height: height), rasterizer: rasterizer)
            draw(stroke.path, on: halves, scale: scale, clip: PixelRect(x: 77, y: 0, width: width - 77, height: height),
                 rasterizer: rasterizer)
            var y = 0
            while y < height {
                var x = 0
                while x < width {
                    let tile = PixelRect(x: x, y: y, width: 13 + x % 17, height: 11 + y % 7)
                    draw(stroke.path, on: tiles, scale: scale, clip: tile, rasterizer: rasterizer)
                    x = tile.maxX
                }
                y += 11 + y % 7
            }
            XCTAssertEqual(differences(whole, halves), [], "halves at scale \(scale)")
            XCTAssertEqual(differences(whole, tiles), [], "tiles at scale \(scale)")
        }
    }

    func testLiveFramesDrawnByDamageEqualTheBakedStroke() {
        // The live app redraws only what each new point changed; lifting the finger bakes the
        // whole stroke at once. Both must show exactly the same pixels.
        for scale in [1.0, 2.0] {
            let stroke = wanderingStroke(seed: 21, count: 80, in: Size(width: 160, height: 120))
            let live = CanvasRenderer(width: 160, height: 120, scale: scale)
            var previous: [PathElement] = []
            for count in 1...stroke.points.count {
                let partial = Stroke(points: Array(stroke.points.prefix(count)))
                let path = partial.path
                // What changed: every element that differs from the last frame's path, old and new.
                let unchanged = zip(previous, path).prefix { $0 == $1 }.count
                let changedElements = Array(previous.dropFirst(max(unchanged - 1, 0))) + Array(path.dropFirst(max(unchanged - 1, 0)))
                let changed = changedElements.reduce(Rect.null) { $0.union($1.controlBounds) }
                let margin = partial.style.width / 2 + 1
                live.drawLive(path, tail: nil, style: partial.style, changed: changed.insetBy(dx: -margin, dy: -margin))
                previous = path
            }
            let shown = Bitmap(width: live.frame.width, height: live.frame.height)
            shown.copy(shown.bounds, from: live.frame)
            live.bake(stroke)
            XCTAssertEqual(differences(shown, live.frame), [], "scale \(scale): live frames vs the baked stroke")
            let rebuilt = CanvasRenderer(width: 160, height: 120, scale: scale)
            rebuilt.rebuild(strokes: [stroke])
            XCTAssertEqual(differences(shown, rebuilt.frame), [], "scale \(scale): live frames vs a rebuild")
        }
    }

    func testALongLiveStrokeDrawnAsTheAppDrawsItEqualsTheBakedStroke() {
        // As the session draws: the finished path grows, the tail is separate, and each redraw
        // looks only at the elements near its damage. A long stroke wandering over a small
        // canvas crosses itself often, so redraws must find old ink under new damage.
        for scale in [1.0, 2.0] {
            let stroke = wanderingStroke(seed: 7, count: 800, in: Size(width: 120, height: 90))
            let live = CanvasRenderer(width: 120, height: 90, scale: scale)
            var smoother = InkSmoother(start: stroke.points[0])
            let margin = stroke.style.width / 2 + 1
            live.drawLive(smoother.path, tail: nil, style: stroke.style,
                          changed: Rect(origin: stroke.points[0], size: .zero).insetBy(dx: -margin, dy: -margin))
            for p in stroke.points.dropFirst() {
                var changed = smoother.path.last.map { Rect(origin: $0.endPoint, size: .zero) } ?? .null
                if let tail = smoother.tail { changed = changed.union(tail.controlBounds) }
                if let segment = smoother.add(p) { changed = changed.union(segment.controlBounds) }
                if let tail = smoother.tail { changed = changed.union(tail.controlBounds) }
                live.drawLive(smoother.path, tail: smoother.tail, style: stroke.style, changed: changed.insetBy(dx: -margin, dy: -margin))
            }
            let shown = Bitmap(width: live.frame.width, height: live.frame.height)
            shown.copy(shown.bounds, from: live.frame)
            let rebuilt = CanvasRenderer(width: 120, height: 90, scale: scale)
            rebuilt.rebuild(strokes: [stroke])
            XCTAssertEqual(differences(shown, rebuilt.frame), [], "scale \(scale): live frames vs a rebuild")
        }
    }

    func testOnlyPixelsInsideTheClipChange() {
        let bitmap = paper(100, 40)
        let clip = PixelRect(x: 33, y: 18, width: 20, height: 3)
        draw(line(10, 20, 90, 20), on: bitmap, clip: clip)
        for y in 0..<40 {
            for x in 0..<100 {
                let inside = x >= clip.x && x < clip.maxX && y >= clip.y && y < clip.maxY
                XCTAssertEqual(bitmap.pixel(x: x, y: y), inside ? blue : white, "(\(x), \(y))")
            }
        }
    }

    func testClipOutsideTheBitmapAndEmptyPathsTouchNothing() {
        let bitmap = paper(50, 50)
        draw(line(10, 10, 40, 40), on: bitmap, clip: PixelRect(x: 60, y: 0, width: 20, height: 20))
        draw([], on: bitmap)
        draw(line(-1e12, 25, 1e12, 25), on: bitmap, clip: PixelRect(x: 0, y: 0, width: 50, height: 10))
        draw(line(.nan, 25, 30, .infinity), on: bitmap)
        XCTAssertEqual(differences(bitmap, paper(50, 50)), [])
        // A line from far away still draws where it crosses the bitmap.
        draw(line(-1e12, 25, 1e12, 25), on: bitmap)
        XCTAssertEqual(bitmap.pixel(x: 25, y: 25), blue)
        XCTAssertEqual(bitmap.pixel(x: 25, y: 10), white)
    }

    func testStrokeBoundsHoldEveryPaintedPixel() {
        for (seed, scale) in [(1 as UInt64, 1.0), (2, 2.0), (3, 1.5), (4, 3.0)] {
            let stroke = wanderingStroke(seed: seed, count: Int(seed) * 13, in: Size(width: 90, height: 70))
            let bitmap = paper(Int(90 * scale), Int(70 * scale))
            draw(stroke.path, on: bitmap, scale: scale)
            let allowed = PixelRect(covering: stroke.bounds, scale: scale)
            var painted = 0
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) != white {
                    painted += 1
                    XCTAssertTrue(allowed.contains(PixelRect(x: x, y: y, width: 1, height: 1)),
                                  "(\(x), \(y)) painted outside \(allowed), seed \(seed)")
                }
            }
            XCTAssertGreaterThan(painted, 0)
        }
    }
}
