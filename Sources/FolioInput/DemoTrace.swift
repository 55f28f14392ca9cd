import Foundation
import FolioGeometry

/// The built-in demo `folio --demo` plays: a wave, a spiral, a dot ringed by a loop, drawn with
/// one finger at a touchscreen's pace, then a two-finger pinch that folds the page to 0.75,
/// holds it and lets go; once the book is open, a finger from the right edge turns to a new
/// sheet and draws a wave there. Generated for the window's logical size, so it fits any window.
public enum DemoTrace {
    /// Touch sampling interval (ms): a 125 Hz touchscreen.
    static let sampleInterval = 8.0

    public static func trace(width: Int, height: Int) -> Trace {
        var writer = Writer()
        let w = Double(width), h = Double(height), unit = min(w, h)
        writer.wait(250)  // let the first frame show

        // A wave across the upper part: two periods.
        writer.stroke(duration: 1100) { t in
            Point(x: w * (0.12 + 0.76 * t), y: h * 0.3 + unit * 0.09 * sin(t * 4 * .pi))
        }
        writer.wait(250)

        // A spiral opening outwards, lower left.
        let spiralCentre = Point(x: w * 0.32, y: h * 0.68)
        writer.stroke(duration: 1300) { t in
            let angle = t * 3 * 2 * .pi, radius = unit * (0.02 + 0.15 * t)
            return Point(x: spiralCentre.x + radius * cos(angle), y: spiralCentre.y + radius * sin(angle))
        }
        writer.wait(250)

        // A dot (a tap), then a loop around it.
        let dot = Point(x: w * 0.7, y: h * 0.68)
        writer.tap(at: dot, holding: 60)
        writer.wait(200)
        writer.stroke(duration: 700) { t in
            let angle = -.pi / 2 + t * 2.1 * .pi, radius = unit * 0.1
            return Point(x: dot.x + radius * cos(angle), y: dot.y + radius * sin(angle))
        }
        writer.wait(450)

        // Two fingers 40 % of the width apart pinch to 75 % of that, hold, and lift.
        writer.pinch(centre: Point(x: w / 2, y: h / 2), from: w * 0.4, to: w * 0.4 * 0.75, duration: 500, hold: 700)
        writer.wait(900)  // the book opens (0.5 / 0.75 s)

        // A finger from the right edge turns the page over to a new sheet, and draws there.
        writer.stroke(duration: 600) { t in Point(x: w - 4 - t * (w * 0.75), y: h * 0.5 + unit * 0.05 * t) }
        writer.wait(500)  // the turn settles
        writer.stroke(duration: 500) { t in
            Point(x: w * (0.3 + 0.4 * t), y: h * 0.5 + unit * 0.06 * sin(t * 2 * .pi))
        }
        return Trace(events: writer.events)
    }

    private struct Writer {
        var events: [TimedInputEvent] = []
        var time = 0.0

        mutating func wait(_ milliseconds: Double) { time += milliseconds }

        private mutating func emit(_ batch: [InputEvent]) {
            for event in batch + [.touchFrame] { events.append(TimedInputEvent(time: time, event: event)) }
        }

        /// One finger along `path(t)`, t from 0 to 1, eased so it starts and ends gently.
        mutating func stroke(duration: Double, path: (Double) -> Point) {
            emit([.touchDown(id: 1, at: path(0))])
            let steps = max(1, Int(duration / DemoTrace.sampleInterval))
            for step in 1...steps {
                time += DemoTrace.sampleInterval
                emit([.touchMotion(id: 1, to: path(ease(Double(step) / Double(steps))))])
            }
            time += DemoTrace.sampleInterval
            emit([.touchUp(id: 1)])
        }

        mutating func tap(at p: Point, holding milliseconds: Double) {
            emit([.touchDown(id: 1, at: p)])
            time += milliseconds
            emit([.touchUp(id: 1)])
        }

        /// Two fingers, level about `centre`, from `start` apart to `end` apart, then held still.
        mutating func pinch(centre: Point, from start: Double, to end: Double, duration: Double, hold: Double) {
            func fingers(_ distance: Double) -> (Point, Point) {
                (Point(x: centre.x - distance / 2, y: centre.y), Point(x: centre.x + distance / 2, y: centre.y))
            }
            let (a, b) = fingers(start)
            emit([.touchDown(id: 2, at: a), .touchDown(id: 3, at: b)])
            let steps = max(1, Int(duration / DemoTrace.sampleInterval))
            for step in 1...steps {
                time += DemoTrace.sampleInterval
                let (a, b) = fingers(start + (end - start) * ease(Double(step) / Double(steps)))
                emit([.touchMotion(id: 2, to: a), .touchMotion(id: 3, to: b)])
            }
            time += hold
            emit([.touchUp(id: 2), .touchUp(id: 3)])
        }

        /// Smoothstep: a hand speeds up and slows down.
        private func ease(_ t: Double) -> Double { t * t * (3 - 2 * t) }
    }
}
