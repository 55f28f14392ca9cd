import XCTest
@testable import FolioLayers

final class TransactionTests: XCTestCase {
    func testDefaultsAreCoreAnimations() throws {
        let transaction = Transaction()
        let parameters = try XCTUnwrap(transaction.actionParameters())
        XCTAssertEqual(parameters.duration, 250)
        XCTAssertEqual(parameters.timing, .default)
        XCTAssertFalse(transaction.disableActions)
    }

    func testDisabledActionsApplyAtOnceAndNestingRestores() {
        let transaction = Transaction()
        transaction.begin()
        transaction.disableActions = true
        XCTAssertNil(transaction.actionParameters())
        transaction.begin()
        transaction.animationDuration = 0.5 / 0.75
        XCTAssertNil(transaction.actionParameters(), "the outer group's disableActions still holds")
        transaction.disableActions = false
        XCTAssertEqual(transaction.actionParameters()?.duration ?? 0, 500 / 0.75, accuracy: 1e-9)
        transaction.commit()
        XCTAssertNil(transaction.actionParameters())
        transaction.commit()
        XCTAssertNotNil(transaction.actionParameters())
    }

    func testCompletionWaitsForEveryAnimationOfItsGroup() {
        let transaction = Transaction()
        var log: [String] = []
        transaction.perform(duration: 0.5, completion: { log.append("outer") }) {
            transaction.addAnimation(ending: 500)
            transaction.perform(completion: { log.append("inner") }) {
                transaction.addAnimation(ending: 700)
            }
        }
        transaction.advance(to: 499)
        XCTAssertEqual(log, [])
        transaction.advance(to: 650)
        XCTAssertEqual(log, [])
        transaction.advance(to: 700)
        XCTAssertEqual(log, ["inner", "outer"], "the inner group was committed first; both end at 700")
        transaction.advance(to: 900)
        XCTAssertEqual(log, ["inner", "outer"], "a completion runs once")
    }

    func testACompletionWithoutAnimationsRunsAtTheNextAdvance() {
        let transaction = Transaction()
        var ran = 0
        transaction.advance(to: 100)
        transaction.perform(completion: { ran += 1 }) {}
        XCTAssertEqual(ran, 0)
        XCTAssertTrue(transaction.hasPendingCompletions)
        transaction.advance(to: 100)
        XCTAssertEqual(ran, 1)
        XCTAssertFalse(transaction.hasPendingCompletions)
    }

    func testCompletionsRunInOrderOfTheirAnimationsEnds() {
        let transaction = Transaction()
        var log: [Int] = []
        transaction.perform(completion: { log.append(1) }) { transaction.addAnimation(ending: 900) }
        transaction.perform(completion: { log.append(2) }) { transaction.addAnimation(ending: 300) }
        transaction.advance(to: 1000)
        XCTAssertEqual(log, [2, 1])
    }

    func testACancelledCompletionNeverRuns() throws {
        let transaction = Transaction()
        var ran = false
        let completion = transaction.perform(completion: { ran = true }) { transaction.addAnimation(ending: 300) }
        XCTAssertTrue(transaction.isAnimating, "a waiting completion wants frames")
        transaction.cancel(try XCTUnwrap(completion))
        XCTAssertFalse(transaction.isAnimating)
        transaction.advance(to: 400)
        XCTAssertFalse(ran)
    }

    func testIsAnimatingAnswersForEveryAttachedTree() {
        let transaction = Transaction()
        let fold = Layer(), turn = PageTurnScene(width: 800, height: 600)
        fold.transaction = transaction
        turn.transaction = transaction
        XCTAssertFalse(transaction.isAnimating)
        fold.transform = .scale(0.5, 0.5, 1)
        transaction.flush()
        XCTAssertTrue(transaction.isAnimating)
        transaction.advance(to: 250)
        XCTAssertFalse(transaction.isAnimating)
        turn.setAngle(-1)
        XCTAssertTrue(transaction.isAnimating)
        transaction.advance(to: 500)
        XCTAssertFalse(transaction.isAnimating)
    }

    func testImplicitGroupIsCommittedByFlush() {
        let transaction = Transaction()
        transaction.disableActions = true
        XCTAssertNil(transaction.actionParameters())
        transaction.flush()
        XCTAssertNotNil(transaction.actionParameters())
    }
}
