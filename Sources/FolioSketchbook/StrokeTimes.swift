import Foundation

/// When a stroke was drawn: the moment of its first point, and each point's delay after it, so
/// a sheet can be played back at the pace it was drawn.
///
/// The start is seconds since the Unix epoch as an f64 (a microsecond's precision for millennia,
/// and any clock Folio may meet); the offsets are whole milliseconds as u32, the unit input
/// events come in (Wayland's and the traces'), 4 bytes a point, up to 49.7 days per stroke.
public struct StrokeTimes: Hashable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z, within `starts`.
    public var start: Double
    /// Per point, milliseconds after `start`: the first is 0, and none is less than the one before.
    public var offsets: [UInt32]

    /// The starts a book keeps: from the Unix epoch to the end of the year 9999.
    public static let starts: ClosedRange<Double> = 0...253_402_300_799

    public init(start: Double, offsets: [UInt32]) {
        self.start = start
        self.offsets = offsets
    }

    /// Times for a stroke begun at `start` (seconds, clamped to `starts`; not a number as 0) with
    /// its first point.
    public init(startingAt start: Double) {
        self.start = start.isNaN ? 0 : min(max(start, Self.starts.lowerBound), Self.starts.upperBound)
        offsets = [0]
    }

    /// Adds a point `seconds` after the start: whole milliseconds, never before the point before
    /// and within u32.
    public mutating func add(after seconds: Double) {
        let milliseconds = seconds.isNaN ? 0 : min(max((seconds * 1000).rounded(), 0), Double(UInt32.max))
        offsets.append(max(UInt32(milliseconds), offsets.last ?? 0))
    }

    /// The same span spread evenly over `count` points (a stroke redrawn with other points, such
    /// as the shape a held stroke snapped to).
    public func spread(over count: Int) -> StrokeTimes {
        let last = Double(offsets.last ?? 0)
        let spread = (0..<max(count, 0)).map { i in count > 1 ? UInt32((last * Double(i) / Double(count - 1)).rounded()) : 0 }
        return StrokeTimes(start: start, offsets: spread)
    }

    /// Whether these are times a book keeps for `count` points: a start within `starts`, one
    /// offset per point, the first 0 and none decreasing.
    public func isValid(forPoints count: Int) -> Bool {
        guard Self.starts.contains(start), offsets.count == count, offsets.first == 0 else { return false }
        return zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }
    }
}
