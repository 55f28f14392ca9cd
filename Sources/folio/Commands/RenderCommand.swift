import ArgumentParser
import Foundation
import FolioCore
import FolioInput
import FolioLayers
import FolioPixels
import FolioRender
import FolioReplay
import FolioSketchbook

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one frame headlessly to a PNG file.")

    @OptionGroup var window: WindowOptions

    @Option(help: ArgumentHelp("Show the pinch fold at this scale (clamped to 0.48…1.0).", valueName: "S"))
    var fold: Double?

    @Option(help: ArgumentHelp("Show the sheet on the easel turning forward, θ = −P·π (0…1; the next sheet is blank if there is none).",
                               valueName: "P"))
    var flip: Double?

    @Option(help: ArgumentHelp("A trace whose drawing fills the canvas (default: a blank sheet).", valueName: "trace"))
    var trace: String?

    @Option(help: ArgumentHelp("A sketchbook whose sheet on the easel fills the canvas (read, never written).", valueName: "dir"))
    var book: String?

    @OptionGroup var look: FoldLookOptions

    @Option(help: ArgumentHelp("The fold's column kernels: \(FoldKernels.available.map(\.name).joined(separator: ", ")) (default: the fastest; all give the same bytes).",
                               valueName: "name"))
    var kernels: String?

    @Option(help: ArgumentHelp("The PNG file to write.", valueName: "png"))
    var out: String

    mutating func validate() throws {
        if let fold, !fold.isFinite { throw ValidationError("--fold takes a scale such as 0.75") }
        if let flip, !(flip >= 0 && flip <= 1) { throw ValidationError("--flip takes a progress from 0 to 1, such as 0.25") }
        if fold != nil && flip != nil { throw ValidationError("--fold and --flip each render a whole frame: give one") }
        if trace != nil && book != nil { throw ValidationError("--trace and --book each fill the canvas: give one") }
        _ = try FoldKernels.named(kernels)
    }

    func run() throws {
        var parsed = Trace(events: [])
        if let trace {
            parsed = try Trace.load(contentsOf: URL(fileURLWithPath: trace))
        }
        let sketchbook = try book.map { try loadBook(at: $0) } ?? Sketchbook()
        let replay = Replay(trace: parsed, options: .init(width: window.size.width, height: window.size.height, scale: window.scale.scale),
                            book: sketchbook)
        try replay.run { _, _, _ in }
        guard fold != nil || flip != nil else {
            try PNG.write(replay.session.frame, to: out)
            return
        }
        // The pages show the canvas as the trace left it.
        let session = replay.session
        session.finishActiveStroke()
        guard !session.mode.showsCurtain else {
            throw FolioError("\(trace ?? "the trace") ends inside a fold or a page turn; `folio replay` renders that")
        }
        let canvas = session.frame
        let renderer = PageRenderer(pixelWidth: canvas.width, pixelHeight: canvas.height, scale: session.scale.factor,
                                    kernels: try FoldKernels.named(kernels))
        let frame = Bitmap(width: canvas.width, height: canvas.height)
        if let flip {
            let current = session.book.currentSheet, sheets = session.book.sheets
            let next = CanvasRenderer(width: session.width, height: session.height, scale: session.scale.factor)
            _ = next.rebuild(strokes: current + 1 < sheets.count ? sheets[current + 1].strokes : [])
            let turn = TurnController(width: session.sceneSize.width, height: session.sceneSize.height)
            turn.begin(earlier: canvas, later: next.baked, angle: -flip * Double.pi)
            renderer.render(turn.scene, into: frame, options: look.renderOptions)
        } else if let fold {
            let scene = FoldScene(width: session.sceneSize.width, height: session.sceneSize.height)
            scene.setContents(canvas)
            scene.setScale(fold)
            renderer.render(scene.root, into: frame, options: look.renderOptions)
        }
        try PNG.write(frame, to: out)
    }
}
