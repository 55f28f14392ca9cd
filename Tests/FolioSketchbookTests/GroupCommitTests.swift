import FolioGeometry
import Foundation
import XCTest
@testable import FolioSketchbook

/// Group commit: the live app appends each save at once and syncs them together within a second.
final class GroupCommitTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-commit-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A timer that fires only when the test says so, keeping what it was asked.
    private final class ManualTimer: SaveTimer {
        private let armed = Locked<[(Duration, @Sendable () -> Void)]>([])

        func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
            armed.withLock { $0.append((delay, work)) }
        }

        var delays: [Duration] { armed.withLock { $0.map(\.0) } }

        /// Runs what is armed, as the clock would once its delay has passed.
        func fire() {
            let due = armed.withLock { armed in
                defer { armed.removeAll() }
                return armed.map(\.1)
            }
            due.forEach { $0() }
        }
    }

    /// `fdatasync` counted, and failing with EIO while `failing` is set.
    private final class CountingSync: Sendable {
        private let state = Locked((calls: 0, failing: false))
        var calls: Int { state.withLock { $0.calls } }
        func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

        func sync(_ fd: Int32) -> Int32 {
            let failing = state.withLock { state -> Bool in
                state.calls += 1
                return state.failing
            }
            if failing {
                errno = EIO
                return -1
            }
            return fdatasync(fd)
        }
    }

    private final class Lines: Sendable {
        private let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private func stroke(_ n: Int) -> Stroke {
        Stroke(points: (0..<20).map { Point(x: Double($0 + n), y: Double(n)) })
    }

    private func strokesOnDisk() throws -> Int {
        try BookStore(directory: folder).load().sheets.reduce(0) { $0 + $1.strokes.count }
    }

    func testSavesAreAppendedAtOnceAndSyncedTogetherWithinTheBound() throws {
        let store = BookStore(directory: folder)
        let syncs = CountingSync()
        let writer = try store.openForWriting(sync: { syncs.sync($0) })
        var book = Sketchbook()
        book.append(stroke(0))
        try writer.save(book)  // the first save writes the snapshot, durably, without fdatasync
        XCTAssertEqual(syncs.calls, 0)
        let timer = ManualTimer()
        let saver = AutoSaver(writer: writer, timer: timer, report: { XCTFail($0) })

        for n in 1...5 {
            book.append(stroke(n))
            saver.save(book)
            saver.waitForAppends()
            // In the file at once: a process killed now loses nothing.
            XCTAssertEqual(try strokesOnDisk(), n + 1)
        }
        XCTAssertTrue(writer.hasUnsyncedSaves)
        XCTAssertEqual(syncs.calls, 0, "nothing synced before the timer fires")
        XCTAssertEqual(timer.delays.count, 1, "one sync armed for all five appends")
        XCTAssertLessThanOrEqual(timer.delays.first ?? .seconds(2), .seconds(1), "a save is synced within a second")
        timer.fire()
        XCTAssertEqual(syncs.calls, 1, "one fdatasync covers every record since the last")
        XCTAssertFalse(writer.hasUnsyncedSaves)

        // The next append arms the timer again.
        book.append(stroke(6))
        saver.save(book)
        saver.waitForAppends()
        XCTAssertEqual(timer.delays.count, 1)
        timer.fire()
        XCTAssertEqual(syncs.calls, 2)
        timer.fire()
        XCTAssertEqual(syncs.calls, 2, "nothing to sync, no fdatasync")
    }

    func testFinishSyncsAtOnce() throws {
        let syncs = CountingSync()
        let writer = try BookStore(directory: folder).openForWriting(sync: { syncs.sync($0) })
        var book = Sketchbook()
        book.append(stroke(0))
        try writer.save(book)
        let timer = ManualTimer()
        let saver = AutoSaver(writer: writer, timer: timer, report: { XCTFail($0) })
        book.append(stroke(1))
        saver.save(book)
        book.append(stroke(2))
        try saver.finish(book)
        XCTAssertEqual(syncs.calls, 1, "quit, a signal or the compositor gone: synced without waiting for the timer")
        XCTAssertFalse(writer.hasUnsyncedSaves)
        XCTAssertEqual(try strokesOnDisk(), 3)
    }

    func testAFailedSyncIsReportedAndTheSavesAreWrittenAgain() throws {
        let syncs = CountingSync()
        let writer = try BookStore(directory: folder).openForWriting(sync: { syncs.sync($0) })
        var book = Sketchbook()
        book.append(stroke(0))
        try writer.save(book)
        let sizeSynced = try Data(contentsOf: BookStore(directory: folder).file).count
        let timer = ManualTimer()
        let lines = Lines()
        let saver = AutoSaver(writer: writer, timer: timer, report: { lines.add($0) })

        syncs.fail(true)
        for n in 1...3 {
            book.append(stroke(n))
            saver.save(book)
        }
        saver.waitForAppends()
        timer.fire()
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains("fdatasync: \(String(cString: strerror(EIO)))") == true, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains("the drawing is kept in memory") == true, "\(lines.all)")
        XCTAssertEqual(try Data(contentsOf: BookStore(directory: folder).file).count, sizeSynced,
                       "the records a failed sync did not cover are taken off the file")
        XCTAssertThrowsError(try saver.finish(book), "quit says the book could not be saved")
        XCTAssertEqual(lines.all.count, 1, "one line per run of failures")

        // Once the disk works again, the next save writes every stroke the failed syncs held.
        syncs.fail(false)
        book.append(stroke(4))
        try saver.finish(book)
        XCTAssertEqual(try BookStore(directory: folder).load().sheets.map(\.strokes), book.sheets.map(\.strokes))
    }

    func testAFailedAppendIsReportedAndNothingIsLost() throws {
        let writer = try BookStore(directory: folder).openForWriting()
        var book = Sketchbook()
        book.append(stroke(0))
        try writer.save(book)
        let before = try Data(contentsOf: BookStore(directory: folder).file)
        let timer = ManualTimer()
        let lines = Lines()
        let saver = AutoSaver(writer: writer, timer: timer, report: { lines.add($0) })

        // A full disk: no file may grow past its current size.
        signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        var small = saved
        small.rlim_cur = rlim_t(before.count)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small)
        defer { setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved) }
        for n in 1...3 {
            book.append(stroke(n))
            saver.save(book)
            saver.waitForAppends()
        }
        XCTAssertThrowsError(try saver.finish(book))
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains("the previous save is kept") == true, "\(lines.all)")
        XCTAssertEqual(try Data(contentsOf: BookStore(directory: folder).file), before, "the file is as it was")
        XCTAssertTrue(timer.delays.isEmpty, "no sync armed for appends that failed")

        try saver.finish(book)
        XCTAssertEqual(try BookStore(directory: folder).load().sheets.map(\.strokes), book.sheets.map(\.strokes))
    }
}
