/// A small open-addressing hash table from non-negative integers to integers, for the per-run
/// caches of validation, which are keyed by positions and would otherwise pay for `Hasher`.
struct IntTable: Sendable {
    private var keys: [Int] = []
    private var values: [Int] = []
    private var count = 0

    @inline(__always)
    private static func slot(_ key: Int, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 17) & mask
    }

    /// The value stored for `key`, if any.
    @inline(__always)
    func find(_ key: Int) -> Int? {
        guard !keys.isEmpty else { return nil }
        let mask = keys.count - 1
        var slot = Self.slot(key, mask)
        while true {
            let found = keys[slot]
            if found == -1 { return nil }
            if found == key { return values[slot] }
            slot = (slot + 1) & mask
        }
    }

    /// Stores `value` for a key `>= 0`, replacing any value it had.
    mutating func insert(_ key: Int, _ value: Int) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = Self.slot(key, mask)
        while keys[slot] != -1 && keys[slot] != key { slot = (slot + 1) & mask }
        if keys[slot] == -1 { count += 1 }
        keys[slot] = key
        values[slot] = value
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let size = max(16, keys.count * 2)
        keys = Array(repeating: -1, count: size)
        values = Array(repeating: 0, count: size)
        count = 0
        for index in oldKeys.indices where oldKeys[index] != -1 { insert(oldKeys[index], oldValues[index]) }
    }
}
