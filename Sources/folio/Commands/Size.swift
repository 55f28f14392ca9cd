import ArgumentParser

/// A `WxH` size argument.
struct PixelSize: ExpressibleByArgument, CustomStringConvertible {
    var width: Int
    var height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        width = w
        height = h
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    var description: String { "\(width)x\(height)" }
    static var defaultValueDescription: String { "WxH" }
}
