/// One argument, variable definition or object field written by ``TokenWriter``: where its text is
/// in the output and where its name (the sort key) is in the source.
struct WrittenMember: BitwiseCopyable {
    var start: Int
    var end: Int
    var keyStart: UInt32
    var keyEnd: UInt32
}

/// The second pass of the source normalizer: writes the tokens of scanned definitions as
/// ``CompactWriter`` writes the nodes the parser would build from them, byte for byte.
///
/// Token by token, the compact form needs only the previous byte written: a name or keyword gets a
/// space after a name character, a number not starting with `-` too, a string after a `"`, and
/// nothing else ever does. Strings are written as quoted strings from their decoded value.
/// Arguments, variable definitions and object fields (marked by the scan) are written in source
/// order, each member's output range noted; when a list closes out of order, its members are
/// rewritten in name order (a stable sort) with the spaces between them worked out again. Inner
/// lists close, and are sorted, before the lists around them.
///
/// Invariants: ``frames`` holds, for each sorted list open, where its members start in ``members``;
/// every member's `end` is set before its list is sorted.
struct TokenWriter: ~Copyable {
    let bytes: UnsafeBufferPointer<UInt8>
    var out: TextBuffer
    var members: FlatList<WrittenMember>
    var frames: FlatList<Int>
    var order: FlatList<Int>
    /// Room for the text of a list being reordered (`scratchCapacity` bytes, allocated on first use).
    private var scratch: UnsafeMutablePointer<UInt8>?
    private var scratchCapacity = 0

    init(bytes: UnsafeBufferPointer<UInt8>, capacity: Int) {
        self.bytes = bytes
        out = TextBuffer(capacity: capacity)
        members = FlatList(capacity: 16)
        frames = FlatList(capacity: 8)
        order = FlatList(capacity: 16)
    }

    deinit {
        scratch?.deallocate()
    }

    /// Writes the tokens of one definition, from its first token to write.
    mutating func write(_ definition: ScannedDefinition, tokens: borrowing FlatList<ScannedToken>) {
        var index = definition.firstToken
        let end = definition.endToken
        while index < end {
            let token = tokens[index]
            if token.flags & ScannedToken.closesSortedList != 0 { closeList() }
            let start = Int(token.start)
            let first = bytes[start]
            let last = out.lastByte
            let needsSpace: Bool
            switch token.kind {
            case .name: needsSpace = last.isNameContinue
            case .int, .float: needsSpace = last.isNameContinue && first != 0x2D
            case .string, .blockString: needsSpace = last == 0x22
            default: needsSpace = false
            }
            if token.flags & ScannedToken.startsMember != 0 {
                if members.count > frames.last { members.last.end = out.count }
                if needsSpace { out.byte(0x20) }
                // A variable definition's key is the name after its `$`.
                let key = token.kind == .dollar ? tokens[index + 1] : token
                members.append(WrittenMember(start: out.count, end: 0, keyStart: key.start, keyEnd: key.end))
            } else if needsSpace {
                out.byte(0x20)
            }
            let length = Int(token.end) - start
            if token.kind == .string || token.kind == .blockString {
                string(token)
            } else if length <= 16, start + 16 <= bytes.count, let base = bytes.baseAddress {
                out.appendShort(UnsafeRawPointer(base + start), length: length)
            } else {
                out.append(UnsafeBufferPointer(rebasing: bytes[start..<Int(token.end)]))
            }
            if token.flags & ScannedToken.opensSortedList != 0 {
                frames.append(members.count)
            }
            index += 1
        }
    }

    /// Writes a string token as a quoted string of its value, escaped as ``CompactWriter`` does.
    private mutating func string(_ token: ScannedToken) {
        let start = Int(token.start)
        let end = Int(token.end)
        if token.kind == .string, token.flags & ScannedToken.hasEscape == 0 {
            // No escapes: the value is the text between the quotes.
            out.quotedString(utf8: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)]))
            return
        }
        let lexer = Lexer(bytes: bytes, maxIgnoredTokens: 0)
        let lexed = Token(
            kind: token.kind, start: start, end: end, hasEscape: token.flags & ScannedToken.hasEscape != 0)
        out.quotedString(token.kind == .string ? lexer.stringValue(of: lexed) : lexer.blockStringValue(of: lexed))
    }

    /// Ends the innermost sorted list before its closing token is written, putting its members in
    /// name order if they are not.
    private mutating func closeList() {
        let base = frames.last
        frames.truncate(to: frames.count - 1)
        let count = members.count - base
        guard count > 0 else { return }
        members.last.end = out.count
        defer { members.truncate(to: base) }
        var sorted = true
        for index in (base + 1)..<members.count where precedes(members[index], members[index - 1]) {
            sorted = false
            break
        }
        if sorted { return }
        sortOrder(base: base, count: count)
        // Rewrite the members in order; each may now need a space before it, or no longer need one.
        let regionStart = members[base].start
        let saved = saveText(from: regionStart)
        out.truncate(to: regionStart, lineBreaks: out.lineBreaks)
        for position in 0..<count {
            let member = members[base + order[position]]
            let from = member.start - regionStart
            let to = member.end - regionStart
            if from < to, out.lastByte.isNameContinue, saved[from].isNameContinue { out.byte(0x20) }
            out.append(UnsafeBufferPointer(rebasing: saved[from..<to]))
        }
    }

    /// Copies the text written from `start` on into ``scratch``.
    private mutating func saveText(from start: Int) -> UnsafeBufferPointer<UInt8> {
        let text = out.bytes(from: start, to: out.count)
        if scratchCapacity < text.count {
            scratch?.deallocate()
            scratchCapacity = max(256, text.count * 2)
            scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCapacity)
        }
        guard let scratch, let source = text.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        scratch.update(from: source, count: text.count)
        return UnsafeBufferPointer(start: scratch, count: text.count)
    }

    /// Fills ``order`` with the positions of the `count` members from `base` in name order, stably.
    private mutating func sortOrder(base: Int, count: Int) {
        order.truncate(to: 0)
        if count > 16 {
            // Long lists (hostile input): ties broken by position make any sort stable.
            var positions = Array(0..<count)
            positions.sort { lhs, rhs in
                let left = members[base + lhs]
                let right = members[base + rhs]
                if precedes(left, right) { return true }
                if precedes(right, left) { return false }
                return lhs < rhs
            }
            for position in positions { order.append(position) }
            return
        }
        for index in 0..<count {
            // Insertion sort: the lists are short, and it is stable.
            order.append(index)
            var position = index
            while position > 0,
                precedes(members[base + order[position]], members[base + order[position - 1]])
            {
                let swapped = order[position]
                order[position] = order[position - 1]
                order[position - 1] = swapped
                position -= 1
            }
        }
    }

    /// Whether the first member's name sorts before the second's (UTF-8 byte order).
    @inline(__always)
    func precedes(_ lhs: WrittenMember, _ rhs: WrittenMember) -> Bool {
        precedes(lhs.keyStart, lhs.keyEnd, rhs.keyStart, rhs.keyEnd)
    }

    /// Whether the source text `lhsStart..<lhsEnd` sorts before `rhsStart..<rhsEnd` (UTF-8 byte order).
    @inline(__always)
    func precedes(_ lhsStart: UInt32, _ lhsEnd: UInt32, _ rhsStart: UInt32, _ rhsEnd: UInt32) -> Bool {
        let left = UnsafeBufferPointer(rebasing: bytes[Int(lhsStart)..<Int(lhsEnd)])
        let right = UnsafeBufferPointer(rebasing: bytes[Int(rhsStart)..<Int(rhsEnd)])
        return left.lexicographicallyPrecedes(right)
    }
}
