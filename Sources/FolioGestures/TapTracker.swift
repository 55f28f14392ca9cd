import FolioGeometry

/// Tells a two- or three-finger tap from the pinch it begins as. A group of touches runs from the
/// first finger landing until every finger has lifted; it is a tap when it held two or three
/// fingers, every finger landed before any lifted, none moved more than `slop` from where it
/// landed, none was a palm, and the last lifted within `duration` of the first landing.
struct TapTracker: Hashable, Sendable {
    /// From the first finger landing to the last lifting (ms). Shorter than the recogniser's
    /// withdrawal window, so a tap's first finger never keeps a stroke.
    static let duration = 250.0
    /// How far (logical px) a finger may drift from where it landed.
    static let slop = 10.0

    private var began = 0.0
    private var landings: [Int32: Point] = [:]
    private var anyLifted = false
    private var spoiled = false
    /// The group's pinch was withdrawn as a tap's (only a pinch's fingers make a tap).
    private var tookPinch = false

    /// A finger landed; `newGroup` when no other finger was down.
    mutating func landed(_ id: Int32, at p: Point, time: Double, newGroup: Bool) {
        if newGroup { self = TapTracker(began: time) }
        if anyLifted || landings[id] != nil { spoiled = true }
        landings[id] = p
    }

    private init(began: Double) {
        self.began = began
    }

    init() {}

    mutating func moved(_ id: Int32, to p: Point) {
        if let start = landings[id], start.distance(to: p) > Self.slop { spoiled = true }
    }

    /// The group can no longer be a tap (a palm, or the compositor took the touches).
    mutating func spoil() {
        spoiled = true
    }

    /// Whether the group, as it stands at `time`, is still a tap.
    func isTap(at time: Double) -> Bool {
        !spoiled && (2...3).contains(landings.count) && time - began <= Self.duration
    }

    /// The first lift of a pinch: true (the pinch is then withdrawn) when the group is still a tap.
    mutating func takePinch(at time: Double) -> Bool {
        tookPinch = isTap(at: time)
        return tookPinch
    }

    /// A finger lifted, `remaining` still down: after the last, the tap's finger count, if the
    /// group was a tap.
    mutating func lifted(at time: Double, remaining: Int) -> Int? {
        anyLifted = true
        guard remaining == 0 else { return nil }
        defer { spoiled = true }
        return tookPinch && isTap(at: time) ? landings.count : nil
    }
}
