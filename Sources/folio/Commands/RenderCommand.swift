import ArgumentParser
import Foundation
import FolioInput
import FolioRender
import FolioReplay

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one frame headlessly to a PNG file.")

    @Option(help: "Logical window size.")
    var size: PixelSize

    @Option(help: ArgumentHelp("A trace whose drawing fills the canvas (default: a blank sheet).", valueName: "trace"))
    var trace: String?

    @Option(help: ArgumentHelp("The PNG file to write.", valueName: "png"))
    var out: String

    func run() throws {
        var parsed = Trace(events: [])
        if let trace {
            do {
                parsed = try Trace.load(contentsOf: URL(fileURLWithPath: trace))
            } catch let error as TraceError {
                throw FolioError("\(trace): \(error)")
            }
        }
        let replay = Replay(trace: parsed, options: .init(width: size.width, height: size.height))
        replay.run { _, _, _ in }
        try PNG.write(replay.session.frame, to: out)
    }
}
