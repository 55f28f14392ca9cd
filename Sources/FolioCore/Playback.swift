import FolioInput
import FolioRender
import FolioSketchbook

/// The sheet on the easel playing back as it was drawn, on the canvas: its strokes as they were
/// when it began, their schedule, what the canvas shows of them, and its clock (session ms).
struct Playback {
    /// The longest a playback lasts (ms): a longer drawing plays faster to fit.
    static let longest = 30_000.0

    let strokes: [Stroke]
    let schedule: SheetPlayback
    var drawing = PlaybackDrawing()
    /// When it began, and how long it lasts: the drawing's own pace, or `longest` when that is longer.
    let began: Double
    let length: Double

    init(strokes: [Stroke], at time: Double) {
        self.strokes = strokes
        schedule = SheetPlayback(strokes: strokes)
        began = time
        length = min(schedule.duration * 1000, Self.longest)
    }

    /// What shows at `time` (ms): everything once the playback's length has passed.
    func progress(at time: Double) -> SheetPlayback.Progress {
        length > 0 ? schedule.progress(atFraction: (time - began) / length) : schedule.end
    }
}

/// The contacts that stopped a playback: the rest of each (its motion and its lifting) is taken
/// in too, so the touch that stops the playback does not also draw.
struct HeldContacts {
    var touches: Set<Int32> = []
    var pointer = false
    var tablet = false
    var pinch = false

    /// Takes in `event` if it continues or ends a held contact. Touch frames pass: another finger
    /// may share them, and a frame with nothing before it does nothing.
    mutating func takes(_ event: InputEvent) -> Bool {
        switch event {
        case let .touchMotion(id, _), let .touchShape(id, _, _): return touches.contains(id)
        case let .touchUp(id): return touches.remove(id) != nil
        case .touchCancel:
            defer { touches.removeAll() }
            return !touches.isEmpty
        case .pointerMotion: return pointer
        case .pointerButton(_, pressed: false):
            defer { pointer = false }
            return pointer
        case .tabletMotion, .tabletFrame, .tabletButton: return tablet
        case .tabletUp:
            defer { tablet = false }
            return tablet
        case .pinchUpdate: return pinch
        case .pinchEnd:
            defer { pinch = false }
            return pinch
        default: return false
        }
    }

    /// Holds the contact `event` begins, if it begins one; whether it did (or is a key pressed).
    mutating func hold(_ event: InputEvent) -> Bool {
        switch event {
        case let .touchDown(id, _): touches.insert(id)
        case .pointerButton(_, pressed: true): pointer = true
        case .tabletDown: tablet = true
        case .pinchBegin: pinch = true
        case .key(_, pressed: true): break
        default: return false
        }
        return true
    }
}
