import FolioGeometry
import XCTest
@testable import FolioInput

final class TabletTraceTests: XCTestCase {
    func testTheTabletKindsParseAndWriteBack() throws {
        let text = """
        {"t": 0, "kind": "tablet.proximity_in"}
        {"t": 0, "kind": "tablet.proximity_in", "tool": "eraser"}
        {"t": 0, "kind": "tablet.motion", "x": 10, "y": 20}
        {"t": 0, "kind": "tablet.frame"}
        {"t": 1, "kind": "tablet.down"}
        {"t": 1, "kind": "tablet.motion", "x": 11, "y": 21, "pressure": 0.25, "tilt_x": -30, "tilt_y": 12.5}
        {"t": 1, "kind": "tablet.frame"}
        {"t": 2, "kind": "tablet.button", "button": 331, "state": "pressed"}
        {"t": 3, "kind": "tablet.up"}
        {"t": 4, "kind": "tablet.proximity_out"}
        {"t": 4, "kind": "tablet.frame"}
        {"t": 5, "kind": "touch.down", "id": 1, "x": 5, "y": 5}
        {"t": 5, "kind": "touch.shape", "id": 1, "major": 70, "minor": 40.5}
        {"t": 5, "kind": "touch.frame"}
        """
        let trace = try Trace(parsing: text)
        XCTAssertEqual(trace.events.map(\.event), [
            .tabletProximityIn(tool: .pen), .tabletProximityIn(tool: .eraser), .tabletMotion(to: Point(x: 10, y: 20), pressure: nil, tilt: nil),
            .tabletFrame, .tabletDown,
            .tabletMotion(to: Point(x: 11, y: 21), pressure: 0.25, tilt: PenTilt(x: -30, y: 12.5)), .tabletFrame,
            .tabletButton(331, pressed: true), .tabletUp, .tabletProximityOut, .tabletFrame,
            .touchDown(id: 1, at: Point(x: 5, y: 5)), .touchShape(id: 1, major: 70, minor: 40.5), .touchFrame,
        ])
        XCTAssertEqual(try Trace(parsing: trace.serialized()).events, trace.events)
    }

    func testATraceWithoutTabletFramesGetsOneFramePerTabletLine() throws {
        let text = """
        {"t": 0, "kind": "tablet.proximity_in", "tool": "pencil"}
        {"t": 1, "kind": "tablet.motion", "x": 1, "y": 2, "pressure": 1}
        {"t": 2, "kind": "key", "keys": "F11", "state": "pressed"}
        """
        XCTAssertEqual(try Trace(parsing: text).events.map(\.event), [
            .tabletProximityIn(tool: .pencil), .tabletFrame,
            .tabletMotion(to: Point(x: 1, y: 2), pressure: 1, tilt: nil), .tabletFrame,
            .key(KeyChord(key: "F11"), pressed: true),
        ])
    }

    func testOutOfRangeTabletValuesAreReportedWithTheirLine() {
        let cases: [(String, String)] = [
            (#"{"t": 0, "kind": "tablet.motion", "x": 1, "y": 2, "pressure": 1.5}"#, "\"pressure\" must be from 0 to 1"),
            (#"{"t": 0, "kind": "tablet.motion", "x": 1, "y": 2, "pressure": -0.1}"#, "\"pressure\" must be from 0 to 1"),
            (#"{"t": 0, "kind": "tablet.motion", "x": 1, "y": 2, "tilt_x": 91}"#, "\"tilt_x\" must be from -90 to 90 degrees"),
            (#"{"t": 0, "kind": "tablet.motion", "x": 1, "y": 2, "pressure": "firm"}"#, "\"pressure\" must be a number"),
            (#"{"t": 0, "kind": "tablet.proximity_in", "tool": "finger"}"#, "unknown tool \"finger\""),
            (#"{"t": 0, "kind": "tablet.button", "button": -1, "state": "pressed"}"#, "\"button\" must be a 32-bit unsigned integer"),
            (#"{"t": 0, "kind": "tablet.button", "button": 1.5, "state": "pressed"}"#, "\"button\" must be a 32-bit unsigned integer"),
            (#"{"t": 0, "kind": "touch.shape", "id": 1, "major": -2, "minor": 1}"#, "\"major\" must be from 0 to 1000000 (logical pixels)"),
        ]
        for (line, message) in cases {
            XCTAssertThrowsError(try Trace(parsing: "\n" + line)) { error in
                XCTAssertEqual(error as? TraceError, TraceError(line: 2, message: message), line)
            }
        }
    }
}
