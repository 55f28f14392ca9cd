import FolioGeometry

extension Stroke {
    /// This stroke moved so its first point lands exactly on `first`; every other point moves by
    /// `first − (old first point)`, computed once in f64. A book keeps a move as `first` alone and
    /// its reader repeats this arithmetic, so a moved stroke reads back to the bit.
    public func moved(firstPointTo first: Point) -> Stroke {
        guard let start = points.first else { return self }
        let d = first - start
        var moved = self
        moved.points = points.map { $0 + d }
        moved.points[0] = first
        return moved
    }

    /// This stroke moved by `offset` (its first point to `points[0] + offset`).
    public func moved(by offset: Point) -> Stroke {
        guard let start = points.first else { return self }
        return moved(firstPointTo: start + offset)
    }

    /// Whether every point moved by `offset` stays within the range a book keeps.
    func staysWithinReach(movedBy offset: Point) -> Bool {
        moved(by: offset).points.allSatisfy(SurfaceLimits.isWithinReach)
    }

    /// Whether `other` is this stroke moved by `moved(firstPointTo:)` and perhaps recoloured:
    /// the same ink width, pressures, tilts, curve and times, and every point where that move puts it.
    public func isMove(to other: Stroke) -> Bool {
        guard points.count == other.points.count, let first = other.points.first, style.width == other.style.width,
              pressures == other.pressures, tilts == other.tilts, pressureCurve == other.pressureCurve,
              times == other.times else { return false }
        let d = first - points[0]
        for i in points.indices.dropFirst() where points[i] + d != other.points[i] { return false }
        return true
    }
}
