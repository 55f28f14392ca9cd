/// One piece of a stroke's outline path, in logical pixels.
public enum PathElement: Hashable, Sendable {
    case move(to: Point)
    case line(to: Point)
    case quad(control: Point, to: Point)
    case curve(control1: Point, control2: Point, to: Point)

    public var endPoint: Point {
        switch self {
        case let .move(p), let .line(p), let .quad(_, p), let .curve(_, _, p): p
        }
    }

    /// The box around this element's end point and controls: with the start point, they hold
    /// the element (a Bézier stays inside its control hull).
    public var controlBounds: Rect {
        switch self {
        case let .move(p), let .line(p): Rect(origin: p, size: .zero)
        case let .quad(c, p): Rect(bounding: CollectionOfOne(c)).union(Rect(origin: p, size: .zero))
        case let .curve(c1, c2, p):
            Rect(origin: c1, size: .zero).union(Rect(origin: c2, size: .zero)).union(Rect(origin: p, size: .zero))
        }
    }
}

extension PathElement {
    /// The element ranges to walk for redrawing `ranges` (ascending) of a path of `count`
    /// elements: each grows by a neighbour on either side, for the joints, and ranges that then
    /// meet are merged, so no element is walked twice.
    public static func spans(around ranges: [Range<Int>], count: Int) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        for range in ranges {
            let span = max(range.lowerBound - 1, 0)..<min(range.upperBound + 1, count)
            guard !span.isEmpty else { continue }
            if let last = spans.last, span.lowerBound <= last.upperBound {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                spans.append(span)
            }
        }
        return spans
    }
}
