/// Parses GraphQL documents, executable and type-system (SDL) alike, into a ``Document``.
///
/// ```swift
/// let document = try Parser.parse(Source(text, name: "Queries/Hero.graphql"))
/// let schema = try Parser.parse(Source(bytes: sdl, name: "schema.graphql"), limits: .schemas)
/// ```
///
/// The grammar is the October 2021 GraphQL specification plus the additions graphql-js 16 accepts;
/// errors carry graphql-js 16's messages. The parser is a recursive-descent parser over the source
/// bytes that reads one token at a time. The constructs that nest (selection sets, list and object
/// values, list types) are read with explicit stacks instead of recursion, and every level counts
/// against ``Limits/maxDepth``, so hostile nesting fails fast and never overflows the call stack.
public struct Parser {
    var lexer: Lexer
    /// The current token, not yet consumed.
    var token: Token
    /// The token after `token`, when a rule had to look at it.
    var lookaheadToken: Token?
    /// The end offset of the last consumed token: the end of the node being built.
    var previousEnd = 0
    /// Significant tokens consumed so far.
    var tokenCount = 0
    /// Currently open selection sets, list and object values and list types.
    var depth = 0
    let limits: Limits
    /// The bounds that hold inside executable definitions (see `Parser+ExecutableLimits.swift`),
    /// and what the executable definitions parsed so far used of them.
    let executableLimits: Limits?
    var executableTokens = 0
    var executableBytes = 0
    /// The bounds in force for the definition being parsed: ``limits``, or tighter ones inside an
    /// executable definition when ``executableLimits`` is set.
    var activeMaxTokens: Int
    var activeMaxDepth: Int
    var activeMaxEnd = Int.max
    var inExecutableDefinition = false
    /// Shared strings for long names.
    var names: NameTable
    /// Whether long names go through `names`: worth it only for large documents, where names
    /// repeat thousands of times; for small ones the table costs more than it saves. (Names of up
    /// to 15 bytes are inline strings that cost less to build than to look up.)
    let internsNames: Bool
    // Scratch stacks for the lists being built; see `ScratchStack`.
    var selectionStack = ScratchStack<Selection>()
    var argumentStack = ScratchStack<Argument>()
    var directiveStack = ScratchStack<Directive>()
    var variableDefinitionStack = ScratchStack<VariableDefinition>()
    var valueStack = ScratchStack<Value>()
    var objectFieldStack = ScratchStack<ObjectField>()
    var fieldDefinitionStack = ScratchStack<FieldDefinition>()
    var inputValueStack = ScratchStack<InputValueDefinition>()
    var enumValueStack = ScratchStack<EnumValueDefinition>()
    var namedTypeStack = ScratchStack<NamedType>()
    // What the non-recursive rules keep open: see `parseSelectionSet`, `parseValue`, `parseTypeReference`.
    var openSets = ScratchStack<OpenSelectionSet>()
    var pendingSelections = ScratchStack<PendingSelection>()
    var openValues = ScratchStack<OpenValue>()
    var openBrackets = ScratchStack<Int>()

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits, executableLimits: Limits? = nil) {
        lexer = Lexer(bytes: bytes, maxIgnoredTokens: limits.maxIgnoredTokens)
        token = Token(kind: .endOfFile, start: 0, end: 0)
        self.limits = limits
        self.executableLimits = executableLimits
        activeMaxTokens = limits.maxTokens
        activeMaxDepth = limits.maxDepth
        names = NameTable(byteCount: bytes.count)
        internsNames = bytes.count >= 1 << 16
    }

    /// Parses a source into a document.
    /// - Parameters:
    ///   - source: The text and its name (shown in errors).
    ///   - limits: The bounds to enforce; ``Limits/operations`` by default, ``Limits/schemas`` for SDL.
    /// - Returns: The document, which keeps `source` for turning node ranges into lines and columns.
    /// - Throws: ``GraphQLSyntaxError`` at the first syntax error, invalid UTF-8 sequence or exceeded limit.
    public static func parse(_ source: Source, limits: Limits = .operations) throws(GraphQLSyntaxError) -> Document {
        try parse(source, limits: limits, executableLimits: nil)
    }

    /// Parses a source into a document, holding its executable definitions to tighter limits.
    ///
    /// A file may mix type-system definitions, which may be large, with operations and fragments,
    /// which should not be: with `executableLimits`, the document as a whole is held to `limits`
    /// and its operations and fragments to `executableLimits` (their tokens and bytes added up,
    /// the depth of each), so a type definition in the file lifts no bound on its operations.
    ///
    /// ```swift
    /// let document = try Parser.parse(Source("scalar Date\n{ today }"), limits: .schemas,
    ///                                 executableLimits: .operations)
    /// ```
    /// - Parameters:
    ///   - source: The text and its name (shown in errors).
    ///   - limits: The bounds on the whole document.
    ///   - executableLimits: The bounds on its operations and fragments; `nil` for none but `limits`.
    ///     Its ``Limits/maxIgnoredTokens`` is not used: ignored tokens count for the whole document.
    /// - Returns: The document.
    /// - Throws: ``GraphQLSyntaxError`` at the first syntax error, invalid UTF-8 sequence or exceeded limit.
    public static func parse(
        _ source: Source, limits: Limits, executableLimits: Limits?
    ) throws(GraphQLSyntaxError) -> Document {
        // Node ranges hold 32-bit offsets, so no limit goes past 4 GiB.
        let maxBytes = min(limits.maxBytes, Int(UInt32.max) - 1)
        if source.bytes.count > maxBytes {
            throw GraphQLSyntaxError(
                message: "Syntax Error: Document is larger than \(maxBytes) bytes. "
                    + "Parsing aborted; raise Limits.maxBytes to accept it.",
                location: source.location(at: maxBytes), limit: .bytes
            )
        }
        let result = source.bytes.withUnsafeBufferPointer { buffer -> Result<[Definition], ParseFailure> in
            var parser = Parser(bytes: buffer, limits: limits, executableLimits: executableLimits)
            defer { parser.releaseScratch() }
            do throws(ParseFailure) {
                return .success(try parser.parseDefinitions())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let definitions):
            return Document(
                definitions: definitions, range: SourceRange(start: 0, end: source.bytes.count), source: source
            )
        case .failure(let failure):
            throw GraphQLSyntaxError(
                message: "Syntax Error: " + failure.message, location: source.location(at: failure.offset),
                limit: failure.limit
            )
        }
    }

    /// Parses GraphQL text into a document.
    /// - Parameters:
    ///   - text: The document's text.
    ///   - name: The name shown in errors, usually the file's path.
    ///   - limits: The bounds to enforce.
    /// - Returns: The document.
    /// - Throws: ``GraphQLSyntaxError`` at the first problem.
    public static func parse(
        _ text: String, name: String = "GraphQL request", limits: Limits = .operations
    ) throws(GraphQLSyntaxError) -> Document {
        try parse(Source(text, name: name), limits: limits)
    }

    /// Frees the scratch stacks.
    mutating func releaseScratch() {
        selectionStack.release()
        argumentStack.release()
        directiveStack.release()
        variableDefinitionStack.release()
        valueStack.release()
        objectFieldStack.release()
        fieldDefinitionStack.release()
        inputValueStack.release()
        enumValueStack.release()
        namedTypeStack.release()
        openSets.release()
        pendingSelections.release()
        openValues.release()
        openBrackets.release()
    }

    /// The text of a name token; in large documents, long names are shared through `names`.
    @inline(__always)
    mutating func nameText(_ token: Token) -> String {
        guard internsNames, token.end - token.start > 15 else { return lexer.text(of: token) }
        return names.name(start: token.start, end: token.end, in: lexer.bytes)
    }

    /// `Document := Definition+`
    mutating func parseDefinitions() throws(ParseFailure) -> [Definition] {
        try advance()
        var definitions: [Definition] = []
        // Large schemas average 700 bytes or more per definition: reserving for one per 512 bytes
        // spares them repeated copies of a growing array.
        definitions.reserveCapacity(4 + lexer.bytes.count / 512)
        repeat {
            if executableLimits == nil {
                definitions.append(try parseDefinition())
            } else {
                definitions.append(try parseDefinitionInScope())
            }
        } while token.kind != .endOfFile
        return definitions
    }

    // MARK: Tokens

    /// Consumes the current token and reads the next, counting it against ``Limits/maxTokens``.
    @inline(__always)
    mutating func advance() throws(ParseFailure) {
        previousEnd = token.end
        if let next = lookaheadToken {
            token = next
            lookaheadToken = nil
        } else {
            token = try lexer.next()
        }
        if token.kind != .endOfFile {
            tokenCount += 1
            if tokenCount > activeMaxTokens { throw tokenLimitFailure() }
            if token.end > activeMaxEnd { throw executableBytesFailure() }
        }
    }

    // Failures are built out of line, so the rules keep small stack frames. They are
    // `mutating` only so that callers pass the parser by reference: calling a non-mutating method
    // from a mutating one copies the whole parser into the caller's frame, once per call site.

    @inline(never)
    mutating func tokenLimitFailure() -> ParseFailure {
        if inExecutableDefinition, let executableLimits {
            return ParseFailure(
                "Operations and fragments contain more than \(executableLimits.maxTokens) tokens (the limit for "
                    + "operations holds in any document). Parsing aborted.", at: token.start, limit: .tokens
            )
        }
        return ParseFailure(
            "Document contains more than \(limits.maxTokens) tokens. Parsing aborted.", at: token.start, limit: .tokens
        )
    }

    /// `Expected <kind>, found <current token>.`
    @inline(never)
    mutating func expectedFailure(_ kind: TokenKind) -> ParseFailure {
        ParseFailure("Expected \(kind.description), found \(describe(token)).", at: token.start)
    }

    /// The token after the current one, read without consuming anything.
    mutating func lookahead() throws(ParseFailure) -> Token {
        if let next = lookaheadToken { return next }
        if token.kind == .endOfFile { return token }
        let next = try lexer.next()
        lookaheadToken = next
        return next
    }

    /// Consumes a token of `kind` or throws `Expected <kind>, found <token>.`
    @inline(__always)
    @discardableResult
    mutating func expect(_ kind: TokenKind) throws(ParseFailure) -> Token {
        let current = token
        guard current.kind == kind else { throw expectedFailure(kind) }
        try advance()
        return current
    }

    /// Consumes a token of `kind` if it is the current one.
    @inline(__always)
    mutating func expectOptional(_ kind: TokenKind) throws(ParseFailure) -> Bool {
        guard token.kind == kind else { return false }
        try advance()
        return true
    }

    /// `Unexpected <token>.` at the token.
    @inline(never)
    mutating func unexpected(_ token: Token) -> ParseFailure {
        ParseFailure("Unexpected \(describe(token)).", at: token.start)
    }

    /// A token as graphql-js describes it: its kind, then its value in quotes if it has one.
    @inline(never)
    func describe(_ token: Token) -> String {
        guard let value = value(of: token) else { return token.kind.description }
        return "\(token.kind.description) \"\(value)\""
    }

    /// The value graphql-js gives a token: names and numbers as written, strings decoded.
    func value(of token: Token) -> String? {
        switch token.kind {
        case .name, .int, .float: lexer.text(of: token)
        case .string: lexer.stringValue(of: token)
        case .blockString: lexer.blockStringValue(of: token)
        default: nil
        }
    }

    /// The range from `start` to the end of the last consumed token.
    @inline(__always)
    func range(from start: Int) -> SourceRange {
        SourceRange(start: start, end: previousEnd)
    }

    // MARK: Nesting

    /// Counts one more level of nesting at `offset`, failing past ``Limits/maxDepth``.
    @inline(__always)
    mutating func enterNesting(at offset: Int) throws(ParseFailure) {
        depth += 1
        if depth > activeMaxDepth { throw depthFailure(at: offset) }
    }

    @inline(never)
    mutating func depthFailure(at offset: Int) -> ParseFailure {
        if inExecutableDefinition, let executableLimits {
            return ParseFailure(
                "Operation or fragment nests deeper than \(executableLimits.maxDepth) levels (the limit for "
                    + "operations holds in any document). Parsing aborted.", at: offset, limit: .depth
            )
        }
        return ParseFailure(
            "Document nests deeper than \(limits.maxDepth) levels (selection sets, list and object values "
                + "and list types count). Parsing aborted; raise Limits.maxDepth to accept it.",
            at: offset, limit: .depth
        )
    }

    /// Closes the innermost level of nesting.
    @inline(__always)
    mutating func leaveNesting() {
        depth -= 1
    }
}
