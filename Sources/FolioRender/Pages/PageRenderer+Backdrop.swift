import FolioLayers
import FolioPixels

extension PageRenderer {
    /// Takes the root's bitmap, if any, as the backdrop image: its columns, transposed once.
    func prepareBackdrop(_ root: Layer) {
        guard let image = root.contents as? Bitmap else {
            backdropImage?.columns.deallocate()
            backdropImage = nil
            return
        }
        precondition(image.width == pixelWidth && image.height == pixelHeight, "backdrop \(image.width)x\(image.height) is not the frame's size")
        let columns = backdropImage?.columns ?? .allocate(capacity: pixelWidth * pixelHeight)
        transposeColumns(of: image, into: columns)
        backdropImage = (ObjectIdentifier(image), columns)
    }

    /// What the frame shows behind the pages, and as rows where it has them: the root's image,
    /// else the options' flat colour, the root's background colour or the texture.
    func frameBackdrop(_ root: Layer, options: PageRenderOptions) -> (Backdrop, BackdropRows?) {
        if let image = backdropImage { return (.columns(image.columns, period: pixelWidth), nil) }
        if case let .flat(rgb) = options.background {
            return (.flat(0xFF00_0000 | rgb), BackdropRows(pixels: flatBackdropRow(0xFF00_0000 | rgb), stride: 0, period: pixelWidth))
        }
        if let colour = root.backgroundColor {
            return (.flat(colour.opaqueARGB), BackdropRows(pixels: flatBackdropRow(colour.opaqueARGB), stride: 0, period: pixelWidth))
        }
        let tile = backdropTexture()
        return (.columns(tile.columns, period: texturePeriod),
                BackdropRows(pixels: tile.rows.pixels.assumingMemoryBound(to: UInt32.self), stride: tile.rows.stride / 4,
                             period: texturePeriod))
    }

    /// `bitmap`'s pixels column by column: column x at `x * height`.
    private func transposeColumns(of bitmap: Bitmap, into columns: UnsafeMutablePointer<UInt32>) {
        let rows = bitmap.height
        for y in 0..<rows {
            let row = bitmap.pixels.advanced(by: y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<bitmap.width { columns[x * rows + y] = row[x] }
        }
    }

    /// The texture's tile, as columns and as rows, painted on first use.
    private func backdropTexture() -> (columns: UnsafeMutablePointer<UInt32>, rows: Bitmap) {
        if let texture { return texture }
        let rows = Bitmap(width: texturePeriod, height: pixelHeight)
        BackdropTexture.paint(rows, scale: scale)
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: texturePeriod * pixelHeight)
        transposeColumns(of: rows, into: columns)
        texture = (columns, rows)
        return (columns, rows)
    }

    /// A frame-wide row of `colour`, filled again only when the colour changes.
    private func flatBackdropRow(_ colour: UInt32) -> UnsafeMutablePointer<UInt32> {
        let pixels = flatRow?.pixels ?? .allocate(capacity: pixelWidth)
        if flatRow?.colour != colour { pixels.initialize(repeating: colour, count: pixelWidth) }
        flatRow = (colour, pixels)
        return pixels
    }
}

/// The backdrop as the columns read it: one colour, or columns of pixels.
enum Backdrop {
    case flat(UInt32)
    /// Columns of an image or of the texture's tile, column-major, repeated every `period` columns.
    case columns(UnsafeMutablePointer<UInt32>, period: Int)
}

/// The backdrop as rows, where it has them: screen column x of any row is `pixels[x % period]`
/// of that row's, rows `stride` pixels apart (0: every row the same).
struct BackdropRows {
    var pixels: UnsafeMutablePointer<UInt32>
    var stride: Int
    var period: Int
}

extension LayerColor {
    /// The colour as an opaque 0xFFRRGGBB pixel (a backdrop shows no transparency).
    var opaqueARGB: UInt32 {
        func channel(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return 0xFF00_0000 | channel(red) << 16 | channel(green) << 8 | channel(blue)
    }
}
