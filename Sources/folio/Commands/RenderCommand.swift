import ArgumentParser
import Foundation
import FolioCore
import FolioInput
import FolioRender
import FolioReplay
import FolioSketchbook

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one frame headlessly to a PNG file.")

    @OptionGroup var window: WindowOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Show the pinch fold at this scale (clamped to 0.48…1.0).", valueName: "S"))
    var fold: Double?

    /// The documented `--flip`: the progress of a page turn.
    @Option(name: .customLong("flip"), parsing: .unconditional,
            help: ArgumentHelp("Show the sheet on the easel turning forward, θ = −P·π (0…1; the next sheet is blank if there is none).",
                               valueName: "P"))
    var turn: Double?

    @Option(help: ArgumentHelp("A trace whose drawing fills the canvas (default: a blank sheet).", valueName: "trace"))
    var trace: String?

    @Option(help: ArgumentHelp("A sketchbook whose sheet on the easel fills the canvas (read, never written).", valueName: "dir"))
    var book: String?

    @OptionGroup var look: PageLookOptions

    @Option(help: ArgumentHelp("The page renderer's column kernels (fold and turn): \(PageKernels.available.map(\.name).joined(separator: ", ")) (default: the fastest; all give the same bytes).",
                               valueName: "name"))
    var kernels: String?

    @Option(help: ArgumentHelp("The PNG file to write.", valueName: "png"))
    var out: String

    mutating func validate() throws {
        if let fold, !fold.isFinite { throw ValidationError("--fold takes a scale such as 0.75") }
        if let turn, !(turn >= 0 && turn <= 1) { throw ValidationError("--flip takes a progress from 0 to 1, such as 0.25") }
        if fold != nil && turn != nil { throw ValidationError("--fold and --flip each render a whole frame: give one") }
        if trace != nil && book != nil { throw ValidationError("--trace and --book each fill the canvas: give one") }
        _ = try PageKernels.named(kernels)
    }

    func run() throws {
        var parsed = Trace(events: [])
        if let trace {
            parsed = try Trace.load(contentsOf: URL(fileURLWithPath: trace))
        }
        let sketchbook = try book.map { try loadBook(at: $0) } ?? Sketchbook()
        let replay = Replay(trace: parsed, options: .init(width: window.size.width, height: window.size.height, scale: window.scale.scale),
                            book: sketchbook)
        // Every frame drawn, the trace's too, with the kernels asked for.
        replay.session.kernels = try PageKernels.named(kernels)
        try replay.run()
        let session = replay.session
        if let turn {
            try hold(session) { $0.holdTurn(at: -turn * Double.pi) }
        } else if let fold {
            try hold(session) { $0.holdFold(at: fold) }
        }
        try PNG.write(session.frame, to: out)
    }

    /// Shows the pages as `pose` holds them, over the canvas as the trace left it: drawn by the
    /// session, as the app and the replay draw them.
    private func hold(_ session: Session, _ pose: (Session) -> Bool) throws {
        session.finishActiveStroke()
        session.pageOptions = look.renderOptions
        guard pose(session) else {
            throw FolioError("\(trace ?? "the trace") ends inside a fold or a page turn; `folio replay` renders that")
        }
        _ = session.renderFrame()
    }
}
