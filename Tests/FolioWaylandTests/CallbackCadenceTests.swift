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

    /// KWin 5.27 headless at 60 Hz, recorded from Folio's protocol log while a finger drew
    /// (arrival, stamp; ms less 34,275,000): a second callback within a refresh repeats the
    /// stamp (eight times here), the pause between two strokes spans 17 refreshes, and one stamp
    /// is a stale one sent late. The grid is trusted from the eighth callback on, throughout.
    static let kwinRecording: [(arrival: Double, stamp: UInt32)] = [
        (422.4, 348), (584.1, 581), (598.8, 598), (616.1, 615), (636.1, 631), (648.7, 648), (660.9, 648),
        (668.7, 665), (682.3, 681), (704.8, 698), (715.7, 715), (734.2, 731), (748.7, 748), (766.1, 765),
        (782.7, 781), (813.0, 798), (831.5, 815), (846.0, 831), (868.5, 848), (882.7, 881), (898.7, 898),
        (916.8, 898), (932.8, 931), (950.2, 948), (965.9, 965), (982.7, 981), (998.6, 998), (1007.8, 998),
        (1016.6, 1015), (1032.7, 1031), (1049.8, 1048), (1068.1, 1065), (1082.7, 1081), (1098.7, 1098), (1107.7, 1098),
        (1121.7, 1115), (1132.7, 1131), (1148.8, 1148), (1165.8, 1165), (1182.7, 1181), (1198.7, 1198), (1215.7, 1215),
        (1232.7, 1231), (1248.7, 1248), (1265.8, 1265), (1282.8, 1281), (1298.7, 1298), (1307.7, 1298), (1316.7, 1315),
        (1332.7, 1331), (1348.7, 1348), (1365.8, 1365), (1382.7, 1381), (1399.7, 1398), (1415.7, 1415), (1432.8, 1431),
        (1448.7, 1448), (1457.0, 1448), (1466.0, 1465), (1482.7, 1481), (1498.3, 1498), (1506.6, 1498), (1515.6, 1515),
        (1532.8, 1531), (1548.8, 1548), (1565.9, 1565), (1582.7, 1581), (1599.7, 1598), (1615.7, 1615), (1632.7, 1631),
        (1648.7, 1648), (1665.8, 1665), (1682.8, 1681), (1698.7, 1698), (1715.8, 1715), (1732.8, 1731), (1748.7, 1748),
        (1765.8, 1765), (1783.3, 1781), (2070.1, 1798), (2087.4, 2081), (2099.1, 2098), (2116.6, 2115), (2132.2, 2131),
        (2149.1, 2148), (2170.9, 2165), (2183.2, 2181), (2200.4, 2198), (2216.4, 2215), (2232.3, 2231), (2252.1, 2248),
        (2266.2, 2265), (2282.3, 2281), (2299.3, 2298), (2316.3, 2315), (2331.6, 2331), (2340.5, 2331), (2349.9, 2348),
        (2365.2, 2365),
    ]

    func testKWinsRepeatedStampsAndPausesKeepTheCycle() throws {
        var cadence = CallbackCadence()
        var untrusted: [Int] = []
        for (index, callback) in Self.kwinRecording.enumerated() {
            cadence.arrived(at: callback.arrival, stamp: callback.stamp + 34_275_000)
            if index >= 7, cadence.cycle == nil { untrusted.append(index) }
        }
        XCTAssertEqual(untrusted, [], "callbacks after which the cycle was not trusted")
        let cycle = try XCTUnwrap(cadence.cycle)
        XCTAssertEqual(cycle.interval, 1000.0 / 60, accuracy: 0.05)
        // The stamps' grid: 34,275,348 + k refreshes, to their whole ms.
        let phase = (cycle.time - 34_275_348).truncatingRemainder(dividingBy: 1000.0 / 60)
        XCTAssertLessThan(min(phase, 1000.0 / 60 - phase), 2.5)
    }

    /// A long trusted run, then a pause of 20 refreshes: the first callback after it is on the
    /// grid, still trusted. A pause longer than half the run is not judged against it.
    func testAPauseOnAKnownGridKeepsTheCycle() {
        var cadence = CallbackCadence()
        let interval = 1000.0 / 60
        for k in 0..<60 { cadence.arrived(at: Double(k) * interval + 1, stamp: UInt32((Double(k) * interval).rounded(.down))) }
        XCTAssertNotNil(cadence.cycle)
        let after = 79.0 * interval
        cadence.arrived(at: after + 1, stamp: UInt32(after.rounded(.down)))
        XCTAssertEqual(cadence.cycle?.time ?? 0, after.rounded(.down) + 1, accuracy: 0.01)
        let far = 1000.0 * interval
        cadence.arrived(at: far + 1, stamp: UInt32(far.rounded(.down)))
        XCTAssertNil(cadence.cycle)
    }

    /// One repaint off the grid suspends trust for its own callback only; two in a row on a
    /// new phase are a new grid, trusted once four steps lie on it.
    func testOneStampOffTheGridIsPassedOverAndTwoMoveIt() {
        var cadence = CallbackCadence()
        var k = 0.0
        func next(_ shift: Double = 0) {
            k += 1
            let stamp = (k * 16 + shift).rounded(.down)
            cadence.arrived(at: stamp + 0.5, stamp: UInt32(stamp))
        }
        for _ in 0..<10 { next() }
        XCTAssertEqual(cadence.cycle?.interval, 16)
        next(7)
        XCTAssertNil(cadence.cycle, "off the grid")
        next()
        XCTAssertEqual(cadence.cycle?.time, k * 16 + 0.5, "back on the grid, trusted again")
        next(5)
        next(5)
        XCTAssertNil(cadence.cycle, "the grid moved")
        for _ in 0..<2 { next(5) }
        XCTAssertNil(cadence.cycle)
        next(5)
        XCTAssertEqual(cadence.cycle?.time, k * 16 + 5.5, "the new phase, four steps on it")
        XCTAssertEqual(cadence.cycle?.interval, 16)
    }

    /// A finer grid is easier to hit by chance: at 120 Hz (whole-ms stamps), after the two that
    /// give the refresh, seven more callbacks on it are needed, not four.
    func testA120HzGridNeedsSevenOnIt() {
        var cadence = CallbackCadence()
        let interval = 1000.0 / 120
        for k in 0...8 {
            XCTAssertNil(cadence.cycle, "after \(k) callbacks")
            cadence.arrived(at: Double(k) * interval + 0.5, stamp: UInt32((Double(k) * interval).rounded(.down)))
        }
        XCTAssertEqual(cadence.cycle?.interval ?? 0, interval, accuracy: 0.2)
    }
}
