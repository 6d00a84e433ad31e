/// A hash table from (owner, name) to an index, built once with the schema: the field `name` of
/// type `owner`, or a type or directive name with owner -1.
///
/// Validation looks a name up for every field it meets; this table hashes the name's UTF-8 bytes
/// eight at a time (an FNV-style mix) and probes linearly, which costs a fraction of a seeded
/// `Dictionary<String, Int>` look-up and never copies the type that owns the name.
struct NameIndex: Sendable {
    private var names: [String]
    private var owners: [Int32]
    private var values: [Int32]
    private var mask: Int

    private static let empty: Int32 = -2

    /// Creates a table with room for `count` entries at a load of at most one half.
    init(capacity count: Int) {
        guard count > 0 else {
            names = []
            owners = []
            values = []
            mask = 0
            return
        }
        var size = 16
        while size < count * 2 { size <<= 1 }
        names = Array(repeating: "", count: size)
        owners = Array(repeating: Self.empty, count: size)
        values = Array(repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func hash(_ name: String, _ owner: Int) -> Int {
        let seed: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(truncatingIfNeeded: owner &* 0x9E37_79B9)
        // Eight bytes at a time where the string's UTF-8 is contiguous (native strings), else byte
        // by byte; both give the same hash for the same bytes.
        let hash = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
            var hash = seed
            var index = 0
            while index + 8 <= bytes.count {
                var word: UInt64 = 0
                for offset in 0..<8 { word |= UInt64(bytes[index + offset]) << UInt64(offset * 8) }
                hash = (hash ^ word) &* 0x0000_0100_0000_01B3
                hash ^= hash >> 32
                index += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count {
                tail |= UInt64(bytes[index]) << shift
                shift += 8
                index += 1
            }
            return (hash ^ tail ^ UInt64(bytes.count) << 56) &* 0x0000_0100_0000_01B3
        } ?? slowHash(name, seed)
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private static func slowHash(_ name: String, _ seed: UInt64) -> UInt64 {
        var hash = seed
        var word: UInt64 = 0
        var count = 0
        var total = 0
        for byte in name.utf8 {
            word |= UInt64(byte) << UInt64(count * 8)
            count += 1
            total += 1
            if count == 8 {
                hash = (hash ^ word) &* 0x0000_0100_0000_01B3
                hash ^= hash >> 32
                word = 0
                count = 0
            }
        }
        return (hash ^ word ^ UInt64(total) << 56) &* 0x0000_0100_0000_01B3
    }

    /// Adds an entry unless the table already has one for `(owner, name)`; the first one wins.
    mutating func insert(owner: Int, name: String, value: Int) {
        if owners.isEmpty { self = NameIndex(capacity: 8) }
        var slot = Self.hash(name, owner) & mask
        while owners[slot] != Self.empty {
            if owners[slot] == Int32(truncatingIfNeeded: owner) && names[slot] == name { return }
            slot = (slot + 1) & mask
        }
        owners[slot] = Int32(truncatingIfNeeded: owner)
        names[slot] = name
        values[slot] = Int32(truncatingIfNeeded: value)
    }

    /// The value stored for `(owner, name)`, if any.
    @inline(__always)
    func find(owner: Int, name: String) -> Int? {
        guard !owners.isEmpty else { return nil }
        let owner32 = Int32(truncatingIfNeeded: owner)
        var slot = Self.hash(name, owner) & mask
        while true {
            let found = owners[slot]
            if found == Self.empty { return nil }
            if found == owner32 && names[slot] == name { return Int(values[slot]) }
            slot = (slot + 1) & mask
        }
    }
}
