import FolioPixels
import XCTest

/// What each buffer lacks relative to the newest frame, as frames go into buffers in turn and the
/// compositor gives them back in any order.
final class SwapChainTests: XCTestCase {
    private let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
    private let b = PixelRect(x: 50, y: 50, width: 10, height: 10)
    private let c = PixelRect(x: 90, y: 0, width: 10, height: 10)

    func testANewBufferLacksEverythingAndADrawnOneNothing() throws {
        var chain = SwapChain(width: 100, height: 80, capacity: 2)
        let first = try XCTUnwrap(chain.acquire())
        XCTAssertEqual(chain.missing(first), Region(chain.bounds))
        chain.committed(first, damage: Region(a))
        XCTAssertTrue(chain.missing(first).isEmpty)
        XCTAssertTrue(chain.isBusy(first))
        let second = try XCTUnwrap(chain.acquire())
        XCTAssertNotEqual(first, second, "the busy buffer is never handed out")
        XCTAssertEqual(chain.missing(second), Region(chain.bounds), "a buffer never drawn lacks everything")
    }

    func testEachBufferLacksTheDamageOfEveryFrameSinceItWasDrawnWhateverTheReleaseOrder() throws {
        var chain = SwapChain(width: 100, height: 80, capacity: 3)
        var buffers: [Int] = []
        for damage in [Region(chain.bounds), Region(a), Region(b)] {
            let index = try XCTUnwrap(chain.acquire())
            XCTAssertEqual(chain.missing(index), Region(chain.bounds), "each new buffer lacks everything")
            chain.committed(index, damage: damage)
            buffers.append(index)
        }
        XCTAssertEqual(Set(buffers).count, 3)
        XCTAssertNil(chain.acquire(), "all three are held by the compositor")
        XCTAssertFalse(chain.canAcquire)
        XCTAssertEqual(chain.missing(buffers[0]), Region(a).union(b))
        XCTAssertEqual(chain.missing(buffers[1]), Region(b))
        XCTAssertTrue(chain.missing(buffers[2]).isEmpty)
        // Given back newer first.
        chain.released(buffers[1])
        chain.released(buffers[0])
        XCTAssertEqual(chain.acquire(), buffers[1], "the free buffer lacking least is chosen")
        chain.committed(buffers[1], damage: Region(c))
        XCTAssertEqual(chain.missing(buffers[0]), Region(a).union(b).union(c), "the union of the damage since it was drawn")
        XCTAssertEqual(chain.missing(buffers[2]), Region(c))
        XCTAssertTrue(chain.missing(buffers[1]).isEmpty)
        chain.released(buffers[2])
        XCTAssertEqual(chain.acquire(), buffers[2], "lacking only c, it is chosen over the one lacking a, b and c")
        let edge = PixelRect(x: 95, y: 75, width: 20, height: 20)
        chain.committed(buffers[2], damage: Region(edge))
        let clipped = PixelRect(x: 95, y: 75, width: 5, height: 5)
        XCTAssertEqual(chain.missing(buffers[0]), Region(a).union(b).union(c).union(clipped), "damage past the edge is clipped")
        XCTAssertEqual(chain.missing(buffers[1]), Region(clipped))
        XCTAssertEqual(chain.acquire(), buffers[0], "the only free buffer")
    }

    func testANewSizeIsANewChainWhoseBuffersLackEverything() throws {
        var chain = SwapChain(width: 100, height: 80, capacity: 2)
        let index = try XCTUnwrap(chain.acquire())
        chain.committed(index, damage: Region(a))
        chain = SwapChain(width: 120, height: 90, capacity: 2)
        XCTAssertEqual(chain.count, 0)
        let fresh = try XCTUnwrap(chain.acquire())
        XCTAssertEqual(chain.missing(fresh), Region(PixelRect(x: 0, y: 0, width: 120, height: 90)))
    }
}
