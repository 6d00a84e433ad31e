/// Holding the operations and fragments of a document to their own limits (see
/// ``Parser/parse(_:limits:executableLimits:)``).
///
/// Each executable definition is parsed with the tokens, bytes and depth the executable limits
/// still allow (tokens and bytes are shared by all of them, as in a document of operations alone,
/// so a document without type-system definitions fails exactly where ``Limits/operations`` would
/// make it fail, except for the message). The bounds are checked as tokens are read, so an
/// oversized operation is refused as soon as it passes them, not after the whole file is parsed.
extension Parser {
    /// Parses one definition, under the executable limits when it is an operation or fragment.
    mutating func parseDefinitionInScope() throws(ParseFailure) -> Definition {
        guard let executableLimits, startsExecutableDefinition() else { return try parseDefinition() }
        let start = token.start
        // The definition's first token was counted when it was read.
        let startTokens = tokenCount - 1
        inExecutableDefinition = true
        activeMaxTokens = min(limits.maxTokens, startTokens + executableLimits.maxTokens - executableTokens)
        activeMaxDepth = min(limits.maxDepth, executableLimits.maxDepth)
        activeMaxEnd = start + executableLimits.maxBytes - executableBytes
        let definition = try parseDefinition()
        executableTokens += tokenCount - 1 - startTokens
        executableBytes += previousEnd - start
        inExecutableDefinition = false
        activeMaxTokens = limits.maxTokens
        activeMaxDepth = limits.maxDepth
        activeMaxEnd = Int.max
        return definition
    }

    /// Whether the current token starts an operation or a fragment: `{`, or one of their keywords
    /// (a type-system definition starts with its keyword or a description).
    private mutating func startsExecutableDefinition() -> Bool {
        if token.kind == .braceLeft { return true }
        guard token.kind == .name else { return false }
        switch keyword(of: token) {
        case .query, .mutation, .subscription, .fragment: return true
        default: return false
        }
    }

    @inline(never)
    mutating func executableBytesFailure() -> ParseFailure {
        ParseFailure(
            "Operations and fragments are larger than \(executableLimits?.maxBytes ?? limits.maxBytes) bytes (the "
                + "limit for operations holds in any document). Parsing aborted.", at: token.start, limit: .bytes
        )
    }
}
