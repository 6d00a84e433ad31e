/// The kinds of significant tokens; ignored tokens (white space, commas, comments) never appear.
enum TokenKind: UInt8, Sendable {
    case endOfFile
    case bang
    case dollar
    case ampersand
    case parenLeft
    case parenRight
    case spread
    case colon
    case equals
    case at
    case bracketLeft
    case bracketRight
    case braceLeft
    case pipe
    case braceRight
    case name
    case int
    case float
    case string
    case blockString

    /// The description graphql-js uses in messages: a punctuator in quotes, else the kind's name.
    var description: String {
        switch self {
        case .endOfFile: "<EOF>"
        case .bang: "\"!\""
        case .dollar: "\"$\""
        case .ampersand: "\"&\""
        case .parenLeft: "\"(\""
        case .parenRight: "\")\""
        case .spread: "\"...\""
        case .colon: "\":\""
        case .equals: "\"=\""
        case .at: "\"@\""
        case .bracketLeft: "\"[\""
        case .bracketRight: "\"]\""
        case .braceLeft: "\"{\""
        case .pipe: "\"|\""
        case .braceRight: "\"}\""
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }
}

/// One significant token: its kind and byte range. The text is sliced from the source on demand.
struct Token: Sendable {
    /// The kind of token.
    var kind: TokenKind
    /// For `.string`: whether the literal contains a backslash escape; for `.blockString`: whether it
    /// contains `\"""`. Either way, whether its value needs more than copying.
    var hasEscape: Bool
    /// The offset of the first byte.
    var start: Int
    /// The offset just past the last byte.
    var end: Int

    init(kind: TokenKind, start: Int, end: Int, hasEscape: Bool = false) {
        self.kind = kind
        self.hasEscape = hasEscape
        self.start = start
        self.end = end
    }
}

/// A failure inside the lexer or parser, turned into a ``GraphQLSyntaxError`` at the entry point.
///
/// Kept small and free of the source so the throwing paths stay cheap.
struct ParseFailure: Error {
    /// The message, without the `Syntax Error: ` prefix.
    var message: String
    /// The byte offset where parsing stopped.
    var offset: Int
    /// The limit that was exceeded, if any.
    var limit: Limits.Limit?

    init(_ message: String, at offset: Int, limit: Limits.Limit? = nil) {
        self.message = message
        self.offset = offset
        self.limit = limit
    }
}
