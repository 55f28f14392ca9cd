import FolioRandom
import Foundation
import XCTest
@testable import FolioSketchbook

/// The sequence a book's sheets are rebuilt in: the same as an array under any mix of
/// changes, each reaching no deeper than a balanced tree's height.
final class PositionTreeTests: XCTestCase {
    /// An AVL tree of n elements is at most about 1.44 log₂(n + 2) deep.
    private func heightBound(_ count: Int) -> Int {
        Int((1.45 * log2(Double(count + 2))).rounded(.up)) + 1
    }

    func testItHoldsWhatAnArrayHoldsUnderRandomChanges() {
        var random = SeededRandom(state: 28)
        for start in [0, 1, 2, 7, 100] {
            var array = Array(0..<start)
            var tree = PositionTree(array)
            var next = start
            for step in 0..<3000 {
                switch random.next(5) {
                case 0, 1:
                    let index = random.next(array.count + 1)
                    array.insert(next, at: index)
                    tree.insert(next, at: index)
                    next += 1
                case 2 where !array.isEmpty:
                    let index = random.next(array.count)
                    array.remove(at: index)
                    tree.remove(at: index)
                case 3 where !array.isEmpty:
                    let index = random.next(array.count)
                    array[index] += 1_000_000
                    tree.update(at: index) { $0 += 1_000_000 }
                case 4 where !array.isEmpty:
                    let index = random.next(array.count)
                    let before = tree.visits
                    XCTAssertEqual(tree.element(at: index), array[index], "start \(start), step \(step)")
                    XCTAssertLessThanOrEqual(tree.visits - before, heightBound(array.count), "a lookup goes no deeper than the height")
                default:
                    break
                }
                XCTAssertEqual(tree.count, array.count, "start \(start), step \(step)")
            }
            XCTAssertEqual(tree.elements, array, "start \(start)")
        }
    }

    /// Changes at the same end, where an array moves everything: each costs the height.
    func testChangesAtTheFrontCostTheHeight() {
        var tree = PositionTree(Array(0..<100_000))
        var array: [Int] = Array(0..<100_000)
        let before = tree.visits
        for value in 0..<1000 {
            tree.insert(-value, at: 0)
            array.insert(-value, at: 0)
            if value % 3 == 0 {
                tree.remove(at: 0)
                array.remove(at: 0)
            }
        }
        XCTAssertLessThanOrEqual(tree.visits - before, 1334 * 2 * heightBound(tree.count))
        XCTAssertEqual(tree.elements, array)
    }

    /// `update` changes the element where it is: an array there grows without being copied.
    func testUpdateChangesTheElementInPlace() {
        var storage: [Int] = []
        storage.reserveCapacity(64)
        var tree = PositionTree([[Int](), storage, [Int]()])
        let address = tree.update(at: 1) { array -> UnsafeRawPointer? in
            array.append(1)
            return array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        storage = []
        let again = tree.update(at: 1) { array -> UnsafeRawPointer? in
            array.append(2)
            return array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        XCTAssertEqual(address, again, "no copy was made")
        XCTAssertEqual(tree.elements, [[], [1, 2], []])
    }
}
