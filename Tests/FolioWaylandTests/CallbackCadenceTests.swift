import XCTest
@testable import FolioWayland

/// The repaint cycle read from frame callbacks' timestamps, where no presentation feedback is given.
final class CallbackCadenceTests: XCTestCase {
    /// A 60 Hz compositor stamping whole ms, its callbacks reaching the client 0.2 to 9 ms late
    /// (a busy machine), some vblanks skipped: the grid is found, to a fraction of a ms.
    func testJitteryArrivalsOfAGridOfStampsGiveTheGrid() throws {
        var cadence = CallbackCadence()
        let interval = 1000.0 / 60, base = 5_000_000.0, epoch = 123_456.0
        let delays = [0.2, 3, 9, 1.5, 0.4, 6, 2, 0.3, 8, 0.9]
        var vblank = 0
        for (i, delay) in delays.enumerated() {
            vblank += i % 3 == 2 ? 2 : 1
            let truth = epoch + Double(vblank) * interval
            let stamp = UInt32((base + Double(vblank) * interval).rounded(.down))
            cadence.arrived(at: truth + delay, stamp: stamp)
        }
        let cycle = try XCTUnwrap(cadence.cycle)
        XCTAssertEqual(cycle.interval, interval, accuracy: 0.1)
        // The newest callback's place: on the true grid, within the stamps' whole ms.
        let phase = (cycle.time - epoch).truncatingRemainder(dividingBy: interval)
        XCTAssertLessThan(min(phase, interval - phase), 1.3)
    }

    /// A compositor without a clock answers each commit at once: stamps follow the client's own
    /// pace, off any grid, and are never taken for a cycle.
    func testAnswersAtOnceAreNoCycle() {
        var cadence = CallbackCadence()
        var stamp: UInt32 = 1000, time = 50.0
        for gap in [3, 11, 7, 23, 5, 13, 9, 31, 4, 17, 6, 29] {
            stamp += UInt32(gap)
            time += Double(gap)
            cadence.arrived(at: time, stamp: stamp)
        }
        XCTAssertNil(cadence.cycle)
    }

    /// Two callbacks give a refresh; four more on its grid are needed to trust it.
    func testFewerThanFourOnTheGridAreNotTrusted() {
        var cadence = CallbackCadence()
        for i in 0..<5 { cadence.arrived(at: Double(i) * 16, stamp: UInt32(i * 16)) }
        XCTAssertNil(cadence.cycle)
        cadence.arrived(at: 80, stamp: 80)
        XCTAssertEqual(cadence.cycle?.time, 80)
        XCTAssertEqual(cadence.cycle?.interval, 16)
    }
}
