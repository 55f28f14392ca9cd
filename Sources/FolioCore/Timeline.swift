/// Something that happened, for the replay summary and for tests: `stroke.began`, `fold.ended`, …
public struct TimelineEvent: Hashable, Sendable {
    public var time: Double
    public var name: String

    public init(time: Double, name: String) {
        self.time = time
        self.name = name
    }
}

/// What the session asks of the window around it.
public enum SessionRequest: Hashable, Sendable {
    case toggleFullscreen
    case quit
    case save
    /// Export the sheet on the easel as a PNG picture; answer with `Session.exportFinished`.
    case exportSheet
    /// The toolbar's ink choice changed: settings that remember it are written.
    case choicesChanged
    /// Something from outside was out of range and has been fitted: one line for the log.
    case warn(String)
    /// A name is being typed (its text so far, at its start and at each change) or no longer
    /// (nil): an on-screen keyboard may show, and edit it.
    case textInput(String?)
}
