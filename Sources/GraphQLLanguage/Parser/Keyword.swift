/// The names that have a meaning somewhere in the grammar.
enum Keyword: String {
    case on, type, `enum`, `true`, null, query, union, input, `false`, schema, scalar, extend
    case mutation, fragment, interface, directive, implements, repeatable, subscription
}

extension Parser {
    /// The keyword a token spells, if it is a name that is one.
    @inline(__always)
    func keyword(of token: Token) -> Keyword? {
        lexer.keyword(of: token)
    }

    /// Consumes the name `keyword` or throws `Expected "keyword", found <token>.`
    mutating func expectKeyword(_ expected: Keyword) throws(ParseFailure) {
        guard keyword(of: token) == expected else { throw expectedFailure(expected) }
        try advance()
    }

    /// `Expected "<keyword>", found <current token>.`
    @inline(never)
    mutating func expectedFailure(_ expected: Keyword) -> ParseFailure {
        ParseFailure("Expected \"\(expected.rawValue)\", found \(describe(token)).", at: token.start)
    }

    /// Consumes the name `keyword` if it is the current token.
    mutating func expectOptionalKeyword(_ expected: Keyword) throws(ParseFailure) -> Bool {
        guard keyword(of: token) == expected else { return false }
        try advance()
        return true
    }
}

extension Lexer {
    /// The keyword a token spells, if it is a name that is one.
    ///
    /// Packs the name's bytes into two little-endian words and compares them with the keywords'
    /// spellings, so recognising a definition costs one switch rather than a string comparison per
    /// candidate.
    @inline(__always)
    func keyword(of token: Token) -> Keyword? {
        let length = token.end - token.start
        guard token.kind == .name, length >= 2, length <= 12 else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        if token.start + 16 <= bytes.count, let base = bytes.baseAddress {
            // Two unaligned little-endian loads, masked to the name's length.
            let raw = UnsafeRawPointer(base + token.start)
            let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            low = length >= 8 ? first : first & ((1 << (8 * UInt64(length))) - 1)
            high = length <= 8 ? 0 : second & ((1 << (8 * UInt64(length - 8))) - 1)
        } else {
            for index in 0..<min(length, 8) {
                low |= UInt64(bytes[token.start + index]) << (8 * UInt64(index))
            }
            if length > 8 {
                for index in 8..<length {
                    high |= UInt64(bytes[token.start + index]) << (8 * UInt64(index - 8))
                }
            }
        }
        switch (length, low, high) {
        case (2, 0x6E6F, 0): return .on
        case (4, 0x6570_7974, 0): return .type
        case (4, 0x6D75_6E65, 0): return .enum
        case (4, 0x6575_7274, 0): return .true
        case (4, 0x6C6C_756E, 0): return .null
        case (5, 0x79_7265_7571, 0): return .query
        case (5, 0x6E_6F69_6E75, 0): return .union
        case (5, 0x74_7570_6E69, 0): return .input
        case (5, 0x65_736C_6166, 0): return .false
        case (6, 0x616D_6568_6373, 0): return .schema
        case (6, 0x7261_6C61_6373, 0): return .scalar
        case (6, 0x646E_6574_7865, 0): return .extend
        case (8, 0x6E6F_6974_6174_756D, 0): return .mutation
        case (8, 0x746E_656D_6761_7266, 0): return .fragment
        case (9, 0x6361_6672_6574_6E69, 0x65): return .interface
        case (9, 0x7669_7463_6572_6964, 0x65): return .directive
        case (10, 0x6E65_6D65_6C70_6D69, 0x7374): return .implements
        case (10, 0x6261_7461_6570_6572, 0x656C): return .repeatable
        case (12, 0x7069_7263_7362_7573, 0x6E6F_6974): return .subscription
        default: return nil
        }
    }
}
