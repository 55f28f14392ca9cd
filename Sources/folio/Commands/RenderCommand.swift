import ArgumentParser
import Foundation
import FolioInput
import FolioLayers
import FolioPixels
import FolioRender
import FolioReplay

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one frame headlessly to a PNG file.")

    @Option(help: "Logical window size.")
    var size: PixelSize

    @Option(help: ArgumentHelp("Show the pinch fold at this scale (clamped to 0.48…1.0).", valueName: "S"))
    var fold: Double?

    @Option(help: ArgumentHelp("A trace whose drawing fills the canvas (default: a blank sheet).", valueName: "trace"))
    var trace: String?

    @OptionGroup var look: FoldLookOptions

    @Option(help: ArgumentHelp("The PNG file to write.", valueName: "png"))
    var out: String

    mutating func validate() throws {
        if let fold, !fold.isFinite { throw ValidationError("--fold takes a scale such as 0.75") }
    }

    func run() throws {
        var parsed = Trace(events: [])
        if let trace {
            parsed = try Trace.load(contentsOf: URL(fileURLWithPath: trace))
        }
        let replay = Replay(trace: parsed, options: .init(width: size.width, height: size.height))
        try replay.run { _, _, _ in }
        guard let fold else {
            try PNG.write(replay.session.frame, to: out)
            return
        }
        // The pages show the canvas as the trace left it.
        replay.session.finishActiveStroke()
        guard !replay.session.mode.showsCurtain else {
            throw FolioError("\(trace ?? "the trace") ends inside a pinch fold; `folio replay` renders that")
        }
        let canvas = replay.session.frame
        let renderer = PageRenderer(pixelWidth: canvas.width, pixelHeight: canvas.height,
                                    scale: Double(canvas.width) / Double(size.width))
        let scene = FoldScene(width: Double(size.width), height: Double(size.height))
        scene.setContents(canvas)
        scene.setScale(fold)
        renderer.prepare(scene.root)
        let frame = Bitmap(width: canvas.width, height: canvas.height)
        renderer.render(scene.root, into: frame, options: look.renderOptions)
        try PNG.write(frame, to: out)
    }
}
