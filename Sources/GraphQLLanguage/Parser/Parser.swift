/// Parses GraphQL documents, executable and type-system (SDL) alike, into a ``Document``.
///
/// ```swift
/// let document = try Parser.parse(Source(text, name: "Queries/Hero.graphql"))
/// let schema = try Parser.parse(Source(bytes: sdl, name: "schema.graphql"), limits: .schemas)
/// ```
///
/// The grammar is the October 2021 GraphQL specification plus the additions graphql-js 16 accepts;
/// errors carry graphql-js 16's messages. The parser is a recursive-descent parser over the source
/// bytes that reads one token at a time; every recursive construct counts its depth against
/// ``Limits/maxDepth`` so hostile nesting fails fast instead of overflowing the stack.
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

    init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
        lexer = Lexer(bytes: bytes, maxIgnoredTokens: limits.maxIgnoredTokens)
        token = Token(kind: .endOfFile, start: 0, end: 0)
        self.limits = limits
    }

    /// Parses a source into a document.
    /// - Parameters:
    ///   - source: The text and its name (shown in errors).
    ///   - limits: The bounds to enforce; ``Limits/operations`` by default, ``Limits/schemas`` for SDL.
    /// - Returns: The document, which keeps `source` for turning node ranges into lines and columns.
    /// - Throws: ``GraphQLSyntaxError`` at the first syntax error, invalid UTF-8 sequence or exceeded limit.
    public static func parse(_ source: Source, limits: Limits = .operations) throws(GraphQLSyntaxError) -> Document {
        if source.bytes.count > limits.maxBytes {
            throw GraphQLSyntaxError(
                message: "Syntax Error: Document is larger than \(limits.maxBytes) bytes. "
                    + "Parsing aborted; raise Limits.maxBytes to accept it.",
                location: source.location(at: limits.maxBytes), limit: .bytes
            )
        }
        let result = source.bytes.withUnsafeBufferPointer { buffer -> Result<[Definition], ParseFailure> in
            var parser = Parser(bytes: buffer, limits: limits)
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

    /// `Document := Definition+`
    mutating func parseDefinitions() throws(ParseFailure) -> [Definition] {
        try advance()
        var definitions: [Definition] = []
        repeat {
            definitions.append(try parseDefinition())
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
            if tokenCount > limits.maxTokens {
                throw ParseFailure(
                    "Document contains more than \(limits.maxTokens) tokens. Parsing aborted.", at: token.start,
                    limit: .tokens
                )
            }
        }
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
        guard current.kind == kind else {
            throw ParseFailure("Expected \(kind.description), found \(describe(current)).", at: current.start)
        }
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

    /// Consumes the name `keyword` or throws `Expected "keyword", found <token>.`
    mutating func expectKeyword(_ keyword: StaticString) throws(ParseFailure) {
        guard isKeyword(token, keyword) else {
            throw ParseFailure("Expected \"\(keyword)\", found \(describe(token)).", at: token.start)
        }
        try advance()
    }

    /// Consumes the name `keyword` if it is the current token.
    mutating func expectOptionalKeyword(_ keyword: StaticString) throws(ParseFailure) -> Bool {
        guard isKeyword(token, keyword) else { return false }
        try advance()
        return true
    }

    /// Whether `token` is a name spelled `keyword`.
    func isKeyword(_ token: Token, _ keyword: StaticString) -> Bool {
        let length = keyword.utf8CodeUnitCount
        guard token.kind == .name, token.end - token.start == length else { return false }
        let bytes = lexer.bytes
        return keyword.withUTF8Buffer { spelled in
            for index in 0..<length where bytes[token.start + index] != spelled[index] { return false }
            return true
        }
    }

    /// `Unexpected <token>.` at the token.
    func unexpected(_ token: Token) -> ParseFailure {
        ParseFailure("Unexpected \(describe(token)).", at: token.start)
    }

    /// A token as graphql-js describes it: its kind, then its value in quotes if it has one.
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
        if depth > limits.maxDepth {
            throw ParseFailure(
                "Document nests deeper than \(limits.maxDepth) levels (selection sets, list and object values "
                    + "and list types count). Parsing aborted; raise Limits.maxDepth to accept it.",
                at: offset, limit: .depth
            )
        }
    }

    /// Closes the innermost level of nesting.
    @inline(__always)
    mutating func leaveNesting() {
        depth -= 1
    }
}

extension Document {
    /// Parses GraphQL text into a document.
    /// - Parameters:
    ///   - text: The document's text.
    ///   - name: The name shown in errors, usually the file's path.
    ///   - limits: The bounds to enforce; ``Limits/operations`` by default.
    /// - Throws: ``GraphQLSyntaxError`` at the first problem.
    public init(parsing text: String, name: String = "GraphQL request", limits: Limits = .operations)
        throws(GraphQLSyntaxError)
    {
        self = try Parser.parse(Source(text, name: name), limits: limits)
    }

    /// Parses a source into a document.
    /// - Parameters:
    ///   - source: The text and its name.
    ///   - limits: The bounds to enforce; ``Limits/operations`` by default.
    /// - Throws: ``GraphQLSyntaxError`` at the first problem.
    public init(parsing source: Source, limits: Limits = .operations) throws(GraphQLSyntaxError) {
        self = try Parser.parse(source, limits: limits)
    }
}
