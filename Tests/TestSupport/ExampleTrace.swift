/// The example trace of docs/trace-format.md, verbatim: one stroke, then a pinch.
public enum ExampleTrace {
    public static let text = """
    # one stroke, then a pinch from 400 px apart to 300 px apart (scale 0.75), then release
    {"t": 0,   "kind": "touch.down",   "id": 1, "x": 200, "y": 200}
    {"t": 0,   "kind": "touch.frame"}
    {"t": 16,  "kind": "touch.motion", "id": 1, "x": 260, "y": 230}
    {"t": 16,  "kind": "touch.frame"}
    {"t": 33,  "kind": "touch.up",     "id": 1}
    {"t": 33,  "kind": "touch.frame"}
    {"t": 500, "kind": "touch.down",   "id": 2, "x": 760, "y": 600}
    {"t": 500, "kind": "touch.down",   "id": 3, "x": 1160, "y": 600}
    {"t": 500, "kind": "touch.frame"}
    {"t": 600, "kind": "touch.motion", "id": 2, "x": 810, "y": 600}
    {"t": 600, "kind": "touch.motion", "id": 3, "x": 1110, "y": 600}
    {"t": 600, "kind": "touch.frame"}
    {"t": 700, "kind": "touch.up",     "id": 2}
    {"t": 700, "kind": "touch.up",     "id": 3}
    {"t": 700, "kind": "touch.frame"}
    """

    /// Its stroke alone (the first six lines after the comment).
    public static let stroke = text.split(separator: "\n").dropFirst().prefix(6).joined(separator: "\n")

    /// A stroke, then a pinch that folds a 640x400 window's sheet and lets go (the book animates
    /// open): the example's shape, small enough to replay often.
    public static let smallFold = """
    {"t": 0, "kind": "touch.down", "id": 1, "x": 100, "y": 100}
    {"t": 0, "kind": "touch.frame"}
    {"t": 16, "kind": "touch.motion", "id": 1, "x": 160, "y": 130}
    {"t": 16, "kind": "touch.frame"}
    {"t": 33, "kind": "touch.up", "id": 1}
    {"t": 33, "kind": "touch.frame"}
    {"t": 300, "kind": "touch.down", "id": 2, "x": 200, "y": 200}
    {"t": 300, "kind": "touch.down", "id": 3, "x": 440, "y": 200}
    {"t": 300, "kind": "touch.frame"}
    {"t": 405, "kind": "touch.motion", "id": 2, "x": 240, "y": 200}
    {"t": 405, "kind": "touch.motion", "id": 3, "x": 400, "y": 200}
    {"t": 405, "kind": "touch.frame"}
    {"t": 500, "kind": "touch.up", "id": 2}
    {"t": 500, "kind": "touch.up", "id": 3}
    {"t": 500, "kind": "touch.frame"}
    """
}
