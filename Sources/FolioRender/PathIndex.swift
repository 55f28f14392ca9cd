import FolioGeometry

/// The bounds of a growing path's elements, kept in groups of groups, so the elements near a
/// small rectangle are found without walking the path: redrawing a live stroke's newest
/// segment then costs the ink near it, not the stroke's length.
struct PathIndex {
    private static let fanOut = 16
    /// `levels[0][i]` holds element i (its start, controls and end); `levels[k][j]` the union of
    /// `levels[k - 1][fanOut·j ..< fanOut·(j + 1)]`. The top level has at most `fanOut` entries.
    private var levels: [[Rect]] = [[]]
    /// The last element indexed: the next one starts at its end, and a path whose element there
    /// differs (a provisional end drawn as part of the path) is indexed afresh.
    private var last: PathElement?

    /// How many elements of the path are indexed.
    var count: Int { levels[0].count }

    mutating func reset() {
        levels = [[]]
        last = nil
    }

    /// Indexes the elements of `path` beyond those already indexed: a live stroke's path only
    /// grows, its elements never change. A shorter path, or one whose last indexed element
    /// changed, is another path and is indexed afresh.
    mutating func extend(to path: [PathElement]) {
        if path.count < count || (count > 0 && path[count - 1] != last) { reset() }
        for element in path[count...] {
            append(last.map { Rect(origin: $0.endPoint, size: .zero) }?.union(element.controlBounds) ?? element.controlBounds)
            last = element
        }
    }

    /// The indices of the elements whose bounds meet `rect`, as ascending, disjoint ranges.
    func ranges(meeting rect: Rect) -> [Range<Int>] {
        var found: [Range<Int>] = []
        let top = levels.count - 1
        visit(level: top, entries: levels[top].indices, rect: rect, into: &found)
        return found
    }

    private func visit(level: Int, entries: Range<Int>, rect: Rect, into found: inout [Range<Int>]) {
        for i in entries where Self.meets(levels[level][i], rect) {
            if level > 0 {
                let below = (i * Self.fanOut)..<min((i + 1) * Self.fanOut, levels[level - 1].count)
                visit(level: level - 1, entries: below, rect: rect, into: &found)
            } else if let last = found.last, last.upperBound == i {
                found[found.count - 1] = last.lowerBound..<(i + 1)
            } else {
                found.append(i..<(i + 1))
            }
        }
    }

    private mutating func append(_ bounds: Rect) {
        var index = levels[0].count
        levels[0].append(bounds)
        for level in levels.indices.dropFirst() {
            index /= Self.fanOut
            if index < levels[level].count {
                levels[level][index] = levels[level][index].union(bounds)
            } else {
                levels[level].append(bounds)
            }
        }
        if let top = levels.last, top.count > Self.fanOut {
            levels.append(stride(from: 0, to: top.count, by: Self.fanOut).map { start in
                top[start..<min(start + Self.fanOut, top.count)].reduce(Rect.null) { $0.union($1) }
            })
        }
    }

    /// Whether two rectangles share a point, edges included (an element's bounds may be a
    /// line or a point, which `Rect.intersection` counts as nothing).
    private static func meets(_ a: Rect, _ b: Rect) -> Bool {
        !a.isNull && !b.isNull && a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
    }
}
