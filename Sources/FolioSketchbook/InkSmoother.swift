import FolioGeometry

/// Five-point ink smoothing: five points and a counter; every fourth new point closes a cubic
/// Bézier whose end is moved to the midpoint of its neighbours, so joins stay smooth.
/// InkSmootherTests holds it to a plain transcription of that algorithm, call for call.
public struct InkSmoother: Sendable {
    private var pts: [Point]
    private var ctr = 0
    /// The finished part of the path: a move to the first point, then whole cubic segments.
    public private(set) var path: [PathElement]

    public init(start: Point) {
        pts = Array(repeating: start, count: 5)
        path = [.move(to: start)]
    }

    /// Adds an input point; returns the cubic segment it closed, if it closed one.
    @discardableResult
    public mutating func add(_ p: Point) -> PathElement? {
        ctr += 1
        pts[ctr] = p
        guard ctr == 4 else { return nil }
        pts[3] = pts[2].midpoint(pts[4])
        let segment = PathElement.curve(control1: pts[1], control2: pts[2], to: pts[3])
        path.append(segment)
        pts[0] = pts[3]
        pts[1] = pts[4]
        ctr = 1
        return segment
    }

    /// The points received after the last whole segment, drawn so the stroke reaches the finger:
    /// a line, quadratic or cubic through them (none when every point is in a segment).
    public var tail: PathElement? {
        switch ctr {
        case 1: .line(to: pts[1])
        case 2: .quad(control: pts[1], to: pts[2])
        case 3: .curve(control1: pts[1], control2: pts[2], to: pts[3])
        default: nil
        }
    }

    /// The whole path as it should be drawn now: the segments and the tail.
    public var fullPath: [PathElement] {
        if let tail { path + [tail] } else { path }
    }
}
