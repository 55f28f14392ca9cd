import ArgumentParser
import FolioGeometry
import FolioRender

/// `--background RRGGBB` and `--no-shadow`: plain page frames (fold and turn) for tests that look at outlines.
struct PageLookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Replace the backdrop texture with a flat colour.", valueName: "RRGGBB"))
    var background: String?

    @Flag(help: "Draw no shadows.")
    var noShadow = false

    mutating func validate() throws {
        if let background, parseBackground(background) == nil {
            throw ValidationError("--background takes six hex digits RRGGBB, not \"\(background)\"")
        }
    }

    var renderOptions: PageRenderOptions {
        PageRenderOptions(background: background.flatMap(parseBackground).map { .flat($0) } ?? .texture, shadows: !noShadow)
    }

    /// The colour's usual spelling without its `#`.
    private func parseBackground(_ text: String) -> UInt32? { HexColor.parse("#" + text) }
}
