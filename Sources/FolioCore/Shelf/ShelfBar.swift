import FolioGeometry
import FolioRender

/// The shelf's own controls, in a bar above the covers: a new book, a new cover colour, deleting
/// and renaming a book (the next tap on a cover says which), and undoing the last deletion.
public enum ShelfControl: String, CaseIterable, Sendable {
    case newBook = "book.new"
    case recolor = "book.color"
    case delete = "book.delete"
    case rename = "book.rename"
    case undo = "book.undo"

    /// The label on the control.
    public var label: String {
        switch self {
        case .newBook: "New book"
        case .recolor: "Colour"
        case .delete: "Delete"
        case .rename: "Rename"
        case .undo: "Undo"
        }
    }

    /// What the control's button shows in a bar too narrow for the label: a shorter one, then an icon.
    public var face: ShelfBarArt.Face {
        switch self {
        case .newBook: ShelfBarArt.Face(label: label, short: "New", icon: .plus)
        case .recolor: ShelfBarArt.Face(label: label, short: "Colour", icon: .palette)
        case .delete: ShelfBarArt.Face(label: label, short: "Delete", icon: .bin)
        case .rename: ShelfBarArt.Face(label: label, short: "Rename", icon: .pencil)
        case .undo: ShelfBarArt.Face(label: label, short: "Undo", icon: .undo)
        }
    }
}

/// Where the shelf's controls are for a window `width` logical px wide: a centred row at the top,
/// every control always on it. A narrow window shares its width among the buttons, its gaps
/// shrinking below 320 px, so buttons never overlap at any width; what each shows then is
/// `ShelfBarArt`'s to fit (a label, a shorter one, an icon).
public struct ShelfBar: Equatable, Sendable {
    public static let buttonSize = Size(width: 112, height: 48)
    public static let gap = 8.0
    public static let top = 12.0

    public let slots: [(control: ShelfControl, rect: Rect)]

    public init(width: Double) {
        let width = max(width, 1)
        let count = Double(ShelfControl.allCases.count)
        let gap = min(Self.gap, width / 40)
        let fitted = min(Self.buttonSize.width, (width - gap * (count + 1)) / count)
        let row = fitted * count + gap * (count - 1)
        let left = (width - row) / 2
        slots = ShelfControl.allCases.enumerated().map { index, control in
            (control, Rect(x: left + Double(index) * (fitted + gap), y: Self.top, width: fitted, height: Self.buttonSize.height))
        }
    }

    /// The bar's extent, for what it covers on the frame.
    public var bounds: Rect { slots.reduce(Rect.null) { $0.union($1.rect) } }

    public func control(at p: Point) -> ShelfControl? {
        slots.first { $0.rect.contains(p) }?.control
    }

    public func rect(of control: ShelfControl) -> Rect? {
        slots.first { $0.control == control }?.rect
    }

    public static func == (a: ShelfBar, b: ShelfBar) -> Bool {
        a.slots.map(\.rect) == b.slots.map(\.rect)
    }
}
