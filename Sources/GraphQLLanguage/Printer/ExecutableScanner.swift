/// One significant token as the source normalizer keeps it, with what the scan learned about its
/// place in the grammar (see the flags).
struct ScannedToken: BitwiseCopyable {
    var start: UInt32
    var end: UInt32
    var kind: TokenKind
    var flags: UInt8

    /// A string with a backslash escape, or a block string with `\"""`: its value needs decoding.
    static let hasEscape: UInt8 = 1
    /// The `(` of arguments or variable definitions, or the `{` of an object value.
    static let opensSortedList: UInt8 = 2
    /// The `)` or `}` that closes such a list.
    static let closesSortedList: UInt8 = 4
    /// The first token of an argument or object field (its name) or variable definition (its `$`).
    static let startsMember: UInt8 = 8
}

/// One operation or fragment definition found by the scan.
struct ScannedDefinition: BitwiseCopyable {
    /// ``ScannedDefinition/fragment``, or an operation: 0 query, 1 mutation, 2 subscription.
    var kind: UInt8
    /// The token of its name, or -1 for an anonymous operation.
    var nameToken: Int
    /// The first token to write: the `{` of an operation the normalizer writes as the shorthand.
    var firstToken: Int
    /// The token after its last.
    var endToken: Int
    /// Its fragment spreads: indices into ``ExecutableScanner/spreads``.
    var spreadStart: Int
    var spreadEnd: Int

    static let fragment: UInt8 = 3
}

/// The first pass of the source normalizer: reads an executable document's tokens, checking the
/// grammar as ``Parser`` does, without building nodes; keeps the tokens, the definitions and the
/// fragment names each definition spreads.
///
/// Anything it does not accept ends the scan with a ``ParseFailure`` that carries no message: a
/// syntax error or an exceeded limit, but also every type-system definition and description. The
/// caller then takes the parser's route, which gives the parser's result or its error. So the scan
/// may refuse more than the parser does, never less, and whatever it accepts the parser accepts too:
/// the same lexer reads the same tokens under the same limits, the grammar below is the parser's
/// (see `Parser+Operations.swift`, `Parser+Selections.swift`, `Parser+Values.swift`), and nesting
/// is counted the same way against ``Limits/maxDepth``. Nothing here recurses.
struct ExecutableScanner: ~Copyable {
    var lexer: Lexer
    /// The current token, not yet consumed.
    var token = Token(kind: .endOfFile, start: 0, end: 0)
    /// The index of the current token in ``tokens`` (``tokens``' count at the end of the text).
    var current = 0
    var tokens: FlatList<ScannedToken>
    var definitions: FlatList<ScannedDefinition>
    /// The token indices of the fragment names of spreads, definition after definition.
    var spreads: FlatList<Int>
    /// The list and object values open: 1 for a list, 0 for an object.
    var openValues: FlatList<UInt8>
    /// Open selection sets, list and object values and list types, as the parser counts them.
    var depth = 0
    let maxTokens: Int
    let maxDepth: Int

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
        lexer = Lexer(bytes: bytes, maxIgnoredTokens: limits.maxIgnoredTokens)
        maxTokens = limits.maxTokens
        maxDepth = limits.maxDepth
        // Operations average well over three bytes per token.
        tokens = FlatList(capacity: min(bytes.count / 3 + 16, limits.maxTokens))
        definitions = FlatList(capacity: 4)
        spreads = FlatList(capacity: 16)
        openValues = FlatList(capacity: 8)
    }

    /// The failure that sends the caller to the parser.
    @inline(never)
    func refusal() -> ParseFailure {
        ParseFailure("", at: token.start)
    }

    /// `Document := Definition+`, executable definitions only.
    mutating func scanDocument() throws(ParseFailure) {
        try advance()
        repeat {
            try scanDefinition()
        } while token.kind != .endOfFile
    }

    // MARK: Tokens

    /// Consumes the current token, reads the next and keeps it, counting it against the token limit.
    @inline(__always)
    mutating func advance() throws(ParseFailure) {
        token = try lexer.next()
        current = tokens.count
        guard token.kind != .endOfFile else { return }
        if tokens.count >= maxTokens { throw refusal() }
        tokens.append(
            ScannedToken(
                start: UInt32(truncatingIfNeeded: token.start), end: UInt32(truncatingIfNeeded: token.end),
                kind: token.kind, flags: token.hasEscape ? ScannedToken.hasEscape : 0))
    }

    @inline(__always)
    mutating func expect(_ kind: TokenKind) throws(ParseFailure) {
        guard token.kind == kind else { throw refusal() }
        try advance()
    }

    @inline(__always)
    mutating func mark(_ flag: UInt8) {
        tokens[current].flags |= flag
    }

    @inline(__always)
    mutating func enterNesting() throws(ParseFailure) {
        depth += 1
        if depth > maxDepth { throw refusal() }
    }

    // MARK: Definitions

    /// `OperationDefinition` or `FragmentDefinition`; anything else is refused.
    mutating func scanDefinition() throws(ParseFailure) {
        let start = current
        var definition = ScannedDefinition(
            kind: 0, nameToken: -1, firstToken: start, endToken: start,
            spreadStart: spreads.count, spreadEnd: 0)
        if token.kind == .braceLeft {
            try scanSelectionSet()
        } else {
            switch lexer.keyword(of: token) {
            case .query: definition.kind = 0
            case .mutation: definition.kind = 1
            case .subscription: definition.kind = 2
            case .fragment: definition.kind = ScannedDefinition.fragment
            default: throw refusal()
            }
            try advance()
            if definition.kind == ScannedDefinition.fragment {
                // `fragment FragmentName on NamedType Directives? SelectionSet`
                guard token.kind == .name, lexer.keyword(of: token) != .on else { throw refusal() }
                definition.nameToken = current
                try advance()
                guard lexer.keyword(of: token) == .on else { throw refusal() }
                try advance()
                try expect(.name)
                try scanDirectives(const: false)
            } else {
                // `OperationType Name? VariableDefinitions? Directives? SelectionSet`
                if token.kind == .name {
                    definition.nameToken = current
                    try advance()
                }
                let hasVariables = token.kind == .parenLeft
                if hasVariables { try scanVariableDefinitions() }
                let hasDirectives = token.kind == .at
                if hasDirectives { try scanDirectives(const: false) }
                if definition.kind == 0, definition.nameToken < 0, !hasVariables, !hasDirectives {
                    // Written as the `{ ... }` shorthand: start at the selection set.
                    definition.firstToken = current
                }
            }
            try scanSelectionSet()
        }
        definition.endToken = current
        definition.spreadEnd = spreads.count
        definitions.append(definition)
    }

    /// `( VariableDefinition+ )`, `VariableDefinition := Variable : Type DefaultValue? Directives[Const]?`
    mutating func scanVariableDefinitions() throws(ParseFailure) {
        mark(ScannedToken.opensSortedList)
        try advance()
        repeat {
            guard token.kind == .dollar else { throw refusal() }
            mark(ScannedToken.startsMember)
            try advance()
            try expect(.name)
            try expect(.colon)
            try scanType()
            if token.kind == .equals {
                try advance()
                try scanValue(const: true)
            }
            try scanDirectives(const: true)
        } while token.kind != .parenRight
        mark(ScannedToken.closesSortedList)
        try advance()
    }

    /// `Type := NamedType | ListType | NonNullType`: `[`s, a name and `!`, then `]` and `!` for each `[`.
    mutating func scanType() throws(ParseFailure) {
        var brackets = 0
        while token.kind == .bracketLeft {
            try enterNesting()
            brackets += 1
            try advance()
        }
        try expect(.name)
        if token.kind == .bang { try advance() }
        while brackets > 0 {
            try expect(.bracketRight)
            depth -= 1
            brackets -= 1
            if token.kind == .bang { try advance() }
        }
    }

    /// `Directives := Directive+`, or nothing; `Directive := @ Name Arguments?`
    mutating func scanDirectives(const: Bool) throws(ParseFailure) {
        while token.kind == .at {
            try advance()
            try expect(.name)
            if token.kind == .parenLeft { try scanArguments(const: const) }
        }
    }

    /// `Arguments := ( Argument+ )`, `Argument := Name : Value`; the current token is the `(`.
    mutating func scanArguments(const: Bool) throws(ParseFailure) {
        mark(ScannedToken.opensSortedList)
        try advance()
        repeat {
            guard token.kind == .name else { throw refusal() }
            mark(ScannedToken.startsMember)
            try advance()
            try expect(.colon)
            try scanValue(const: const)
        } while token.kind != .parenRight
        mark(ScannedToken.closesSortedList)
        try advance()
    }
}
