/// A sheet played back as it was drawn: when each point of each stroke appears, on a clock of
/// its own that starts at 0 with the first point. Strokes that keep their times play at the pace
/// they were drawn, with every pause (between strokes or within one) cut to `longestPause`;
/// strokes kept before Folio kept times play at an even pace. The app's playback and
/// `folio timelapse` both ask it what is visible at a moment, so they show the same frames.
public struct SheetPlayback: Sendable {
    /// What is visible: the first `strokes` strokes whole, then the first `points` points of the
    /// next one (0: none of it).
    public struct Progress: Hashable, Sendable {
        public var strokes: Int
        public var points: Int

        public init(strokes: Int, points: Int) {
            self.strokes = strokes
            self.points = points
        }
    }

    /// Pauses longer than this (seconds) are cut to it: a break for coffee plays as a beat.
    public static let longestPause = 1.0
    /// The length (seconds) of a stroke without times, and the pause before it.
    public static let evenStroke = 0.5
    public static let evenPause = 0.25

    /// Every point's moment (seconds on the playback clock), stroke after stroke: never decreasing.
    private let moments: [Double]
    /// Where each stroke's points start in `moments`, and one past the last point.
    private let firstPoints: [Int]
    /// The playback's length in seconds: the moment of the last point (0 for no strokes).
    public let duration: Double

    public init(strokes: [Stroke]) {
        var moments: [Double] = []
        var firstPoints: [Int] = [0]
        moments.reserveCapacity(strokes.reduce(0) { $0 + $1.points.count })
        firstPoints.reserveCapacity(strokes.count + 1)
        var clock = 0.0
        // When the stroke before ended, on its own (wall) clock; nil after a stroke without times.
        var previousEnd: Double?
        for (index, stroke) in strokes.enumerated() {
            let count = stroke.points.count
            if stroke.hasTimes, let times = stroke.times {
                let pause = previousEnd.map { times.start - $0 } ?? Self.evenPause
                clock += index == 0 ? 0 : Self.shortened(pause)
                var last = times.offsets.first ?? 0
                for offset in times.offsets {
                    clock += Self.shortened(Double(offset - last) / 1000)
                    last = offset
                    moments.append(clock)
                }
                previousEnd = times.start + Double(last) / 1000
            } else {
                clock += index == 0 ? 0 : Self.evenPause
                let start = clock
                for i in 0..<count {
                    clock = start + (count > 1 ? Self.evenStroke * Double(i) / Double(count - 1) : 0)
                    moments.append(clock)
                }
                previousEnd = nil
            }
            firstPoints.append(moments.count)
        }
        self.moments = moments
        self.firstPoints = firstPoints
        duration = clock
    }

    /// A pause as played: at most `longestPause`; none when the clock went back or is not a number.
    private static func shortened(_ seconds: Double) -> Double {
        seconds > 0 ? min(seconds, longestPause) : 0
    }

    /// How many strokes there are.
    public var strokeCount: Int { firstPoints.count - 1 }

    /// Everything drawn.
    public var end: Progress { Progress(strokes: strokeCount, points: 0) }

    /// What is visible at `seconds` on the playback clock: every point whose moment has come.
    /// Before 0, nothing; from `duration` on, every stroke. O(log n) in the points.
    public func progress(at seconds: Double) -> Progress {
        guard seconds >= 0 else { return Progress(strokes: 0, points: 0) }
        guard seconds < duration else { return end }
        let visible = Self.count(in: moments) { $0 <= seconds }
        // Strokes whose last point is visible are whole.
        let whole = Self.count(in: firstPoints.dropFirst()) { $0 <= visible }
        return Progress(strokes: whole, points: visible - firstPoints[whole])
    }

    /// What is visible `fraction` (0–1) of the way through the playback.
    public func progress(atFraction fraction: Double) -> Progress {
        fraction >= 1 ? end : progress(at: fraction.isNaN ? 0 : fraction * duration)
    }

    /// How many leading elements of the sorted `values` satisfy `isBefore` (binary search).
    private static func count<C: RandomAccessCollection>(in values: C, where isBefore: (C.Element) -> Bool) -> Int where C.Index == Int {
        var low = values.startIndex, high = values.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(values[middle]) { low = middle + 1 } else { high = middle }
        }
        return low - values.startIndex
    }
}

/// The frames of a time-lapse of `count` frames: the drawing plays over all but the last `hold`,
/// which show it finished, so the video ends on the whole sheet and lingers there a moment.
public struct TimelapseFrames: Hashable, Sendable {
    public let count: Int
    public let hold: Int

    /// `count` frames at `fps`: the finished sheet holds for one second, or a tenth of the frames
    /// when that is less.
    public init(count: Int, fps: Int) {
        self.count = max(count, 1)
        hold = min(max(fps, 0), self.count / 10)
    }

    /// How far (0–1) through the drawing frame `index` (0-based) shows: the first frame already
    /// shows a step of it, and the drawing is whole from frame `count − hold − 1` on.
    public func fraction(ofFrame index: Int) -> Double {
        let drawing = max(count - hold, 1)
        return min(Double(index + 1) / Double(drawing), 1)
    }
}
