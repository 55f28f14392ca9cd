/// A sequence in which reaching, inserting or removing the element at any position costs
/// O(log n): an AVL tree ordered by position, each node counting the elements under it.
///
/// A book's change records insert and remove sheets anywhere. In an array each of those moves
/// every sheet after it, so a file of a few megabytes could cost its size times the sheet count
/// to read; here each costs the tree's height, at most about 1.44 log₂ n.
struct PositionTree<Element> {
    /// 16 bytes: a million sheets take 16 MB of nodes.
    private struct Node {
        private var leftSlot: Int32 = -1
        private var rightSlot: Int32 = -1
        private var count: Int32 = 1
        private var levels: Int8 = 1

        var left: Int {
            get { Int(leftSlot) }
            set { leftSlot = Int32(newValue) }
        }
        var right: Int {
            get { Int(rightSlot) }
            set { rightSlot = Int32(newValue) }
        }
        /// Elements in this node's subtree, itself included.
        var size: Int {
            get { Int(count) }
            set { count = Int32(newValue) }
        }
        var height: Int {
            get { Int(levels) }
            set { levels = Int8(newValue) }
        }
    }

    /// Nodes by slot; a removed node's slot is reused by the next insert.
    private var nodes: [Node] = []
    /// Each slot's element; nil in free slots, so a removed element is released at once.
    private var values: [Element?] = []
    private var freeSlots: [Int] = []
    private var root = -1
    /// Nodes visited by inserts, removals and lookups: the work, which tests check grows as log n.
    private(set) var visits = 0

    /// The elements in order, in a balanced tree built in O(n).
    init(_ elements: [Element] = []) {
        precondition(elements.count < Int(Int32.max), "more than \(Int32.max) elements")
        nodes.reserveCapacity(elements.count)
        values.reserveCapacity(elements.count)
        for element in elements {
            nodes.append(Node())
            values.append(element)
        }
        root = build(0..<elements.count)
    }

    var count: Int { size(root) }

    /// The elements in order, in O(n).
    var elements: [Element] { map { $0 } }

    /// `transform` of each element in order, in O(n), without an array of the elements first.
    func map<T>(_ transform: (Element) -> T) -> [T] {
        var out: [T] = []
        out.reserveCapacity(count)
        appendInOrder(root, to: &out, transform)
        return out
    }

    /// The element at `index`, which is below `count`.
    mutating func element(at index: Int) -> Element {
        Self.held(values[find(index)])
    }

    /// Runs `body` on the element at `index` in place: no copy of it is made, so an array there
    /// grows or shrinks at the cost of what changes.
    mutating func update<Result>(at index: Int, _ body: (inout Element) -> Result) -> Result {
        let slot = find(index)
        var element = Self.held(values[slot].take())
        defer { values[slot] = element }
        return body(&element)
    }

    /// Inserts `element` before the one at `index` (at the end when `index` is `count`).
    mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "index \(index) is outside 0...\(count)")
        precondition(freeSlots.count > 0 || nodes.count < Int(Int32.max), "more than \(Int32.max) elements")
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = Node()
            values[slot] = element
        } else {
            slot = nodes.count
            nodes.append(Node())
            values.append(element)
        }
        root = insert(slot, at: index, into: root)
    }

    /// Removes the element at `index`.
    mutating func remove(at index: Int) {
        precondition(index >= 0 && index < count, "index \(index) is outside 0..<\(count)")
        root = remove(at: index, from: root)
    }

    // MARK: - The tree

    /// A slot in the tree always holds its element; only free slots are nil.
    private static func held(_ value: Element?) -> Element {
        guard let value else { preconditionFailure("a node in the tree without its element") }
        return value
    }

    private func size(_ node: Int) -> Int { node < 0 ? 0 : nodes[node].size }
    private func height(_ node: Int) -> Int { node < 0 ? 0 : nodes[node].height }

    private mutating func build(_ slots: Range<Int>) -> Int {
        guard !slots.isEmpty else { return -1 }
        let middle = slots.lowerBound + slots.count / 2
        let left = build(slots.lowerBound..<middle), right = build((middle + 1)..<slots.upperBound)
        nodes[middle].left = left
        nodes[middle].right = right
        update(middle)
        return middle
    }

    private func appendInOrder<T>(_ node: Int, to out: inout [T], _ transform: (Element) -> T) {
        guard node >= 0 else { return }
        appendInOrder(nodes[node].left, to: &out, transform)
        if let value = values[node] { out.append(transform(value)) }
        appendInOrder(nodes[node].right, to: &out, transform)
    }

    /// The slot of the element at `index`, which is below `count`.
    private mutating func find(_ index: Int) -> Int {
        precondition(index >= 0 && index < count, "index \(index) is outside 0..<\(count)")
        var node = root, index = index
        while true {
            visits += 1
            let leftSize = size(nodes[node].left)
            if index < leftSize {
                node = nodes[node].left
            } else if index > leftSize {
                index -= leftSize + 1
                node = nodes[node].right
            } else {
                return node
            }
        }
    }

    private mutating func insert(_ slot: Int, at index: Int, into node: Int) -> Int {
        visits += 1
        guard node >= 0 else { return slot }
        let leftSize = size(nodes[node].left)
        if index <= leftSize {
            let left = insert(slot, at: index, into: nodes[node].left)
            nodes[node].left = left
        } else {
            let right = insert(slot, at: index - leftSize - 1, into: nodes[node].right)
            nodes[node].right = right
        }
        return balance(node)
    }

    private mutating func remove(at index: Int, from node: Int) -> Int {
        visits += 1
        let leftSize = size(nodes[node].left)
        if index < leftSize {
            let left = remove(at: index, from: nodes[node].left)
            nodes[node].left = left
        } else if index > leftSize {
            let right = remove(at: index - leftSize - 1, from: nodes[node].right)
            nodes[node].right = right
        } else {
            let left = nodes[node].left, right = nodes[node].right
            values[node] = nil
            freeSlots.append(node)
            if left < 0 { return right }
            if right < 0 { return left }
            // The next element takes the removed node's place.
            var next = -1
            let rest = removeFirst(from: right, into: &next)
            nodes[next].left = left
            nodes[next].right = rest
            return balance(next)
        }
        return balance(node)
    }

    /// Unlinks the subtree's first node, returned in `first`; returns the subtree without it.
    private mutating func removeFirst(from node: Int, into first: inout Int) -> Int {
        visits += 1
        guard nodes[node].left >= 0 else {
            first = node
            return nodes[node].right
        }
        let left = removeFirst(from: nodes[node].left, into: &first)
        nodes[node].left = left
        return balance(node)
    }

    private mutating func update(_ node: Int) {
        let left = nodes[node].left, right = nodes[node].right
        nodes[node].size = size(left) + size(right) + 1
        nodes[node].height = max(height(left), height(right)) + 1
    }

    /// `node` with its size and height brought up to date, rotated if its sides differ in
    /// height by two; returns the subtree's new root.
    private mutating func balance(_ node: Int) -> Int {
        update(node)
        let left = nodes[node].left, right = nodes[node].right
        if height(left) > height(right) + 1 {
            if height(nodes[left].right) > height(nodes[left].left) { nodes[node].left = rotateLeft(left) }
            return rotateRight(node)
        }
        if height(right) > height(left) + 1 {
            if height(nodes[right].left) > height(nodes[right].right) { nodes[node].right = rotateRight(right) }
            return rotateLeft(node)
        }
        return node
    }

    private mutating func rotateRight(_ node: Int) -> Int {
        let left = nodes[node].left
        nodes[node].left = nodes[left].right
        update(node)
        nodes[left].right = node
        update(left)
        return left
    }

    private mutating func rotateLeft(_ node: Int) -> Int {
        let right = nodes[node].right
        nodes[node].right = nodes[right].left
        update(node)
        nodes[right].left = node
        update(right)
        return right
    }
}
