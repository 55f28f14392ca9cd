import Foundation

/// Where two straight pieces of a thick line meet at a gentle bend, a cut along the bisector (a
/// mitre) joins their edges without the round joint's extra disc; finger ink and pen outlines
/// both join their pieces this way.
public enum Mitre {
    /// The offset from the joint to the mitre's cut on the side of the normals (the other side is
    /// its negation), for pieces with unit normals `n1` and `n2` and half-width `radius`; nil when
    /// the bend is not gentle: the mitre would reach more than `tolerance` beyond the round joint,
    /// or the cut would not fit in half of the shorter piece (`shorterPiece` long).
    public static func offset(_ n1: Point, _ n2: Point, radius: Double, tolerance: Double, shorterPiece: Double) -> Point? {
        let sum = n1 + n2
        let sumLength = (sum.x * sum.x + sum.y * sum.y).squareRoot()
        guard sumLength > 1 else { return nil }
        let bisector = sum * (1 / sumLength)
        let cosHalf = bisector.x * n1.x + bisector.y * n1.y
        let tanHalf = max(0, 1 - cosHalf * cosHalf).squareRoot() / cosHalf
        guard cosHalf >= radius / (radius + tolerance), radius * tanHalf <= shorterPiece / 2 else { return nil }
        return bisector * (radius / cosHalf)
    }

    /// Which quarter of the compass a direction points into: right, down, left or up (y down).
    /// Pieces that keep to one quarter advance steadily one way, so a run of mitred pieces never
    /// comes back over itself. Away from the diagonals a comparison decides, as atan2 would; on or
    /// next to them (and for a zero or infinite direction) atan2 itself does, so the answer never
    /// differs; a direction that is not a number is taken as right.
    public static func quarter(_ d: Point) -> Int {
        let ax = abs(d.x), ay = abs(d.y), margin = 1 + 1e-6
        if ax > ay * margin { return d.x > 0 ? 0 : 2 }
        if ay > ax * margin { return d.y > 0 ? 1 : 3 }
        let turns = (atan2(d.y, d.x) + Double.pi / 4) / (Double.pi / 2)
        guard turns.isFinite else { return 0 }
        return ((Int(turns.rounded(.down)) % 4) + 4) % 4
    }
}
