/// A map that remembers the order of use: most recently used first.
///
/// Nodes live in one array and link to each other by index, so using an entry moves no memory
/// and allocates nothing. Removed nodes are reused.
struct LRUList<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value?
        var previous: Int
        var next: Int
    }

    private var nodes: ContiguousArray<Node> = []
    private var positions: [Key: Int] = [:]
    private var freeNodes: [Int] = []
    /// The most recently used node, or -1.
    private var head = -1
    /// The least recently used node, or -1.
    private var tail = -1

    var count: Int { positions.count }
    var isEmpty: Bool { positions.isEmpty }

    /// The value of `key` without changing the order.
    func peek(_ key: Key) -> Value? {
        guard let position = positions[key] else { return nil }
        return nodes[position].value
    }

    /// Runs `body` on the value of `key` and makes it the most recently used; `nil` when absent.
    mutating func use<Result>(_ key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let position = positions[key], var value = nodes[position].value else { return nil }
        nodes[position].value = nil
        let result = body(&value)
        nodes[position].value = value
        moveToFront(position)
        return result
    }

    /// Inserts or replaces the value of `key` as the most recently used; returns the old value.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key) -> Value? {
        if let position = positions[key] {
            let old = nodes[position].value
            nodes[position].value = value
            moveToFront(position)
            return old
        }
        let node = Node(key: key, value: value, previous: -1, next: head)
        let position: Int
        if let reused = freeNodes.popLast() {
            nodes[reused] = node
            position = reused
        } else {
            nodes.append(node)
            position = nodes.count - 1
        }
        if head >= 0 { nodes[head].previous = position }
        head = position
        if tail < 0 { tail = position }
        positions[key] = position
        return nil
    }

    /// Removes `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let position = positions.removeValue(forKey: key) else { return nil }
        unlink(position)
        let value = nodes[position].value
        nodes[position].value = nil
        freeNodes.append(position)
        return value
    }

    /// Removes and returns the least recently used entry.
    mutating func removeLeastRecent() -> (key: Key, value: Value)? {
        guard tail >= 0 else { return nil }
        let key = nodes[tail].key
        guard let value = remove(key) else { return nil }
        return (key, value)
    }

    /// Every entry, most recently used first.
    var entries: [(key: Key, value: Value)] {
        var out: [(key: Key, value: Value)] = []
        out.reserveCapacity(count)
        var position = head
        while position >= 0 {
            if let value = nodes[position].value { out.append((nodes[position].key, value)) }
            position = nodes[position].next
        }
        return out
    }

    /// Removes everything.
    mutating func removeAll() { self = LRUList() }

    private mutating func moveToFront(_ position: Int) {
        guard head != position else { return }
        unlink(position)
        nodes[position].previous = -1
        nodes[position].next = head
        if head >= 0 { nodes[head].previous = position }
        head = position
        if tail < 0 { tail = position }
    }

    private mutating func unlink(_ position: Int) {
        let previous = nodes[position].previous
        let next = nodes[position].next
        if previous >= 0 { nodes[previous].next = next } else if head == position { head = next }
        if next >= 0 { nodes[next].previous = previous } else if tail == position { tail = previous }
        nodes[position].previous = -1
        nodes[position].next = -1
    }
}
