import ArgumentParser

/// `--size WxH [--scale N]`: the logical window and its buffer scale, as the headless commands
/// (`replay`, `render`, `controls`) take them, checked together so no buffer exceeds
/// `SurfaceLimits`.
struct WindowOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Logical window size.", valueName: "WxH"), transform: PixelSize.parse)
    var size: PixelSize

    @Option(parsing: .unconditional, help: "Buffer pixels per logical pixel: 1 to 8, fractions too (1.25, 1.5), in steps of 1/120.")
    var scale = ScaleArgument(1)

    func validate() throws {
        try scale.validate(with: size)
    }
}
