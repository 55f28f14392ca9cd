import FolioPixels
import XCTest

/// The protocol log reader understands both ways libwayland writes a request: `object@id` (up to
/// 1.22, Debian 12) and `object#id` after the queue's name (1.23 and newer, Debian 13's arm64 build).
final class WaylandDebugLogTests: XCTestCase {
    func testBothLogFormatsGiveTheSameCommits() {
        let older = """
        [1.000]  -> wl_shm_pool@16.create_buffer(new id wl_buffer@20, 0, 984, 164, 3936, 0)
        [1.100]  -> wl_surface@3.attach(wl_buffer@20, 0, 0)
        [1.200]  -> wl_surface@3.damage_buffer(196, 296, 691, 125)
        [1.300]  -> wl_surface@3.commit()
        [1.400] wl_buffer@20.release()
        """
        let newer = """
        [1.000] {Default Queue}  -> wl_shm_pool#16.create_buffer(new id wl_buffer#20, 0, 984, 164, 3936, 0)
        [1.100] {Default Queue}  -> wl_surface#3.attach(wl_buffer#20, 0, 0)
        [1.200] {Default Queue}  -> wl_surface#3.damage_buffer(196, 296, 691, 125)
        [1.300] {Default Queue}  -> wl_surface#3.commit()
        [1.400] {Default Queue} wl_buffer#20.release()
        """
        for text in [older, newer] {
            let log = WaylandDebugLog(text)
            XCTAssertEqual(log.commits.count, 1, text)
            XCTAssertEqual(log.commits.first?.damage, [PixelRect(x: 196, y: 296, width: 691, height: 125)], text)
            XCTAssertEqual(log.buffersCreated, 1, text)
            XCTAssertEqual(log.requestCounts["wl_surface.commit"], 1, text)
        }
    }
}
