/// `frames.jsonl`, the record of what a replay's display showed: one line per presented frame,
/// `{"frame":N,"presented":MS,"input":MS}` (docs/trace-format.md). Times are on the trace's
/// clock, written as the shortest decimal that reads back as the same number.
public struct FrameLog: Sendable {
    public private(set) var text = ""

    public init() {}

    /// Adds the line for `frame`.
    public mutating func append(_ frame: SimulatedCompositor.Presentation) {
        text += "{\"frame\":\(frame.index),\"presented\":\(frame.presented),\"input\":\(frame.input.map { "\($0)" } ?? "null")}\n"
    }
}
