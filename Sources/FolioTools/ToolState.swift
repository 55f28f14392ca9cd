/// The chosen ink: indices into the palette's colours and widths.
public struct InkChoice: Hashable, Sendable {
    public var colorIndex: Int
    public var widthIndex: Int

    /// The palette's first colour and middle width.
    public init(colorIndex: Int = 0, widthIndex: Int = 1) {
        self.colorIndex = colorIndex
        self.widthIndex = widthIndex
    }
}

/// The tool in use and the ink it draws with: one value, which the session owns and the toolbar
/// (what it marks chosen), the settings (the ink kept) and the session's input (what a contact
/// does) read. The ink is kept while another tool is chosen, so choosing ink again resumes it.
public struct ToolState: Hashable, Sendable {
    public var tool: Tool
    public var ink: InkChoice

    public init(tool: Tool = .ink, ink: InkChoice = InkChoice()) {
        self.tool = tool
        self.ink = ink
    }

    /// Chooses `ink`, and with it drawing.
    public mutating func choose(ink: InkChoice) {
        self.ink = ink
        tool = .ink
    }

    /// Chooses `tool`; choosing the tool already in use goes back to ink.
    public mutating func toggle(_ tool: Tool) {
        self.tool = self.tool == tool ? .ink : tool
    }
}
