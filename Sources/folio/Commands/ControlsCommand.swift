import ArgumentParser
import Foundation
import FolioGeometry
import FolioReplay
import FolioToolbar

/// `folio controls --size WxH [--scale N]`: the toolbar's layout when shown, as JSON, the very
/// layout the app and `folio replay` use, so a trace can tap a control by its name. At a
/// fractional `--scale` the rectangles fall on whole buffer pixels.
struct ControlsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controls",
        abstract: "Print the toolbar's layout (logical px) as JSON: the handle and each control's name and rectangle.")

    @OptionGroup var window: WindowOptions

    func run() throws {
        let layout = ToolbarLayout(width: Double(window.size.width), height: Double(window.size.height), scale: window.scale.scale.factor)
        let palette = Palette.standard
        func rect(_ r: Rect) -> [Double] { [r.minX, r.minY, r.width, r.height] }
        let controls: [[String: Any]] = layout.controls.map { slot in
            var entry: [String: Any] = ["name": slot.action.name, "rect": rect(slot.rect)]
            if case let .color(index) = slot.action { entry["color"] = HexColor.format(palette.colors[index]) }
            // Typed: into `Any`, Swift 6.2 picks TOMLKit's subscript (a TOMLValue, which JSON cannot write).
            if case let .width(index) = slot.action { entry["width"] = palette.widths[index] as Double }
            return entry
        }
        let object: [String: Any] = ["handle": rect(layout.handle), "controls": controls]
        let json = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }
}
