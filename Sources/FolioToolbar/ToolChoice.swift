import FolioTools

extension ToolState {
    /// What a tap on `action` chooses: a colour or a width chooses that ink (and drawing), the
    /// eraser toggles erasing, the lasso selecting. False for the controls that choose no tool.
    public mutating func choose(_ action: ControlAction) -> Bool {
        switch action {
        case let .color(index): choose(ink: InkChoice(colorIndex: index, widthIndex: ink.widthIndex))
        case let .width(index): choose(ink: InkChoice(colorIndex: ink.colorIndex, widthIndex: index))
        case .eraser: toggle(.eraser)
        case .lasso: toggle(.lasso)
        case .undo, .redo, .newSheet, .previousSheet, .nextSheet, .deleteSheet, .paper, .play, .export, .fullscreen, .books: return false
        }
        return true
    }
}

extension Palette {
    /// `choice` with each index clamped to the palette.
    public static func clamped(_ choice: InkChoice) -> InkChoice {
        InkChoice(colorIndex: min(max(choice.colorIndex, 0), colorCount - 1),
                  widthIndex: min(max(choice.widthIndex, 0), widthCount - 1))
    }

    /// The colour (0xRRGGBB) and width (logical px) `choice` names.
    public func ink(_ choice: InkChoice) -> (color: UInt32, width: Double) {
        let choice = Self.clamped(choice)
        return (colors[choice.colorIndex], widths[choice.widthIndex])
    }
}
