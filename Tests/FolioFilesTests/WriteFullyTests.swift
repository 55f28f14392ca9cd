@testable import FolioFiles
import XCTest

/// The write loop ends on what a write call reports, whatever it reports: short writes are
/// continued, interruptions retried, and a call that takes nothing or claims too much is a
/// failure rather than a loop without end or a read past the buffer.
final class WriteFullyTests: XCTestCase {
    private let bytes: [UInt8] = Array(0..<100)

    private func run(_ answers: [Int], errnoValue: Int32 = 0) -> (String?, [Int]) {
        var calls: [Int] = []
        var script = answers[...]
        let result = bytes.withUnsafeBytes { buffer in
            writeFully(buffer) { _, done, left in
                calls.append(left)
                guard let answer = script.popFirst() else { return left }
                if answer < 0 { errno = errnoValue }
                return answer
            }
        }
        XCTAssertLessThanOrEqual(calls.count, answers.count + 1)
        return (result, calls)
    }

    func testShortWritesAreContinuedUntilEverythingIsWritten() {
        let (result, calls) = run([30, 30])
        XCTAssertNil(result)
        XCTAssertEqual(calls, [100, 70, 40])
    }

    func testAnInterruptedWriteIsRetried() {
        let (result, calls) = run([-1], errnoValue: EINTR)
        XCTAssertNil(result)
        XCTAssertEqual(calls, [100, 100])
    }

    func testAWriteThatTakesNothingIsAFailureNotALoop() {
        let (result, calls) = run([10, 0, 0, 0])
        XCTAssertEqual(result, "the file took no bytes")
        XCTAssertEqual(calls, [100, 90])
    }

    func testAWriteClaimingMoreThanItWasGivenIsAFailure() {
        let (result, calls) = run([60, 50])
        XCTAssertEqual(result, "the system reported writing more bytes than it was given")
        XCTAssertEqual(calls, [100, 40])
    }

    func testAnErrorIsReportedInTheSystemsWords() {
        let (result, _) = run([-1], errnoValue: ENOSPC)
        XCTAssertEqual(result, String(cString: strerror(ENOSPC)))
    }
}
