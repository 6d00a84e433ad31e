/// The UTF-8 bytes being printed, with the indentation that every line break carries.
///
/// The pretty printer reproduces graphql-js's `indent`, which replaces every `\n` of a nested block
/// with `\n` plus two spaces: here ``lineBreak()`` writes `\n` followed by ``indentation`` spaces, so
/// a line break written anywhere (inside a block string too) gets the indentation of every block it
/// is nested in. The compact writer never breaks lines.
///
/// Invariants: `base` points to `capacity` allocated bytes owned by this buffer, the first `count`
/// of them written; the buffer is not copyable, so nothing else frees or writes them.
struct TextBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes written so far; a mark to measure or undo from.
    private(set) var count = 0
    /// The spaces written after each line break.
    var indentation = 0
    /// How many line breaks were written; lets callers tell whether a piece spans several lines.
    var lineBreaks = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 32)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, copied into an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes written, decoded as a string.
    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// The bytes written from `start` up to `end`.
    func bytes(from start: Int, to end: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// The last byte written, or 0 when nothing was.
    @inline(__always)
    var lastByte: UInt8 { count > 0 ? base[count - 1] : 0 }

    /// The byte at `offset`, which must be below ``count``.
    @inline(__always)
    subscript(offset: Int) -> UInt8 {
        get { base[offset] }
        set { base[offset] = newValue }
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes.
    @inline(__always)
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        let length = source.count
        reserve(length)
        if let start = source.baseAddress {
            (base + count).update(from: start, count: length)
        }
        count += length
    }

    /// Appends `length` bytes (at most 16) from `source`, which must have 16 bytes readable: two
    /// word copies instead of a call to `memcpy`, for the short tokens that make up most text.
    @inline(__always)
    mutating func appendShort(_ source: UnsafeRawPointer, length: Int) {
        reserve(16)
        let target = UnsafeMutableRawPointer(base + count)
        let low = source.loadUnaligned(as: UInt64.self)
        let high = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        target.storeBytes(of: low, as: UInt64.self)
        target.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
        count += length
    }

    /// Appends ASCII or UTF-8 text given as a literal.
    @inline(__always)
    mutating func ascii(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    mutating func text(_ text: String) {
        // Native strings, the only kind parsing makes, are read in place without a copy.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
        if done == nil {
            var copy = text
            copy.withUTF8 { append($0) }
        }
    }

    /// Writes a line break followed by the current indentation.
    mutating func lineBreak() {
        reserve(1 + indentation)
        base[count] = 0x0A
        (base + count + 1).update(repeating: 0x20, count: indentation)
        count += 1 + indentation
        lineBreaks += 1
    }

    /// Drops everything written after `mark` (a value of ``count``), with the line breaks in it.
    mutating func truncate(to mark: Int, lineBreaks marks: Int) {
        count = min(count, mark)
        lineBreaks = marks
    }

    /// The length in UTF-16 code units (as JavaScript counts string length) of the text written
    /// after `mark`, leaving out the indentation written after each of its line breaks.
    func utf16Length(from mark: Int, lineBreaksSince breaks: Int) -> Int {
        var length = 0
        var index = mark
        while index < count {
            let byte = base[index]
            if byte & 0xC0 != 0x80 { length += byte >= 0xF0 ? 2 : 1 }
            index += 1
        }
        return length - breaks * indentation
    }
}

extension UInt8 {
    /// Whether the byte can continue a GraphQL name (`[_0-9A-Za-z]`).
    @inline(__always)
    var isNameContinue: Bool {
        (self >= 0x61 && self <= 0x7A) || (self >= 0x41 && self <= 0x5A) || (self >= 0x30 && self <= 0x39)
            || self == 0x5F
    }
}
