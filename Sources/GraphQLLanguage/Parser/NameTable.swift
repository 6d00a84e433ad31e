/// Interns names while a large document is parsed, so each distinct name is turned into a `String`
/// once and every later occurrence shares it (GitHub's schema spells `PullRequestReviewConnection`
/// hundreds of times, and `first`, `after` and `ID` thousands).
///
/// Open addressing over a power-of-two slot array. Each entry keeps the name's first 16 bytes as
/// two words and where its first occurrence is in the source, so a lookup compares words (and, for
/// longer names, the remaining bytes) without building a string.
struct NameTable {
    private struct Entry {
        var key0: UInt64
        var key1: UInt64
        var hash: UInt64
        var start: Int
        var length: Int
        var name: String
    }

    /// Entry index + 1 per slot; 0 marks an empty slot.
    private var slots: [Int32] = []
    private var entries: [Entry] = []
    /// The slot count of the first table, sized from the document so small documents stay cheap.
    private let initialSize: Int

    /// Creates a table for a document of `byteCount` bytes.
    ///
    /// Sized for about one distinct long name per 512 bytes (large schemas have fewer: GitHub's
    /// 1.2 MB has about 2,200), so the first table is rarely outgrown and never much too big.
    init(byteCount: Int) {
        var size = 64
        while size < byteCount / 256, size < 1 << 16 { size *= 2 }
        initialSize = size
    }

    /// The string for the name at `start..<end`, shared with earlier occurrences.
    mutating func name(start: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let length = end - start
        let key0 = NameTable.word(at: start, count: min(length, 8), in: bytes)
        let key1 = length > 8 ? NameTable.word(at: start + 8, count: min(length - 8, 8), in: bytes) : 0
        var hash = (key0 ^ (key1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xFF51_AFD7_ED55_8CCD
        if length > 16 {
            for offset in (start + 16)..<end { hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01B3 }
        }
        hash ^= hash >> 29
        if entries.count * 2 >= slots.count { rehash() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = Int(slots[slot])
            if index == 0 { break }
            let entry = entries[index - 1]
            if entry.key0 == key0, entry.key1 == key1, entry.length == length,
                length <= 16 || NameTable.equalTails(entry.start, start, length, in: bytes)
            {
                return entry.name
            }
            slot = (slot + 1) & mask
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        entries.append(Entry(key0: key0, key1: key1, hash: hash, start: start, length: length, name: name))
        slots[slot] = Int32(truncatingIfNeeded: entries.count)
        return name
    }

    private mutating func rehash() {
        let size = max(initialSize, slots.count * 2)
        entries.reserveCapacity(size / 2)
        slots = [Int32](repeating: 0, count: size)
        let mask = size - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: index + 1)
        }
    }

    /// Up to eight bytes from `offset` as a little-endian word, zero-padded.
    @inline(__always)
    private static func word(at offset: Int, count: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        if count == 8, offset + 8 <= bytes.count, let base = bytes.baseAddress {
            return UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var word: UInt64 = 0
        for index in 0..<count { word |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return word
    }

    private static func equalTails(_ first: Int, _ second: Int, _ length: Int, in bytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        for index in 16..<length where bytes[first + index] != bytes[second + index] { return false }
        return true
    }
}
