/// Bounds the parser enforces so that hostile documents fail fast instead of exhausting memory,
/// time or the stack.
///
/// Two profiles cover the usual cases: ``operations`` for queries that may come from anywhere and
/// ``schemas`` for large but trusted SDL files. Going past any bound ends parsing with a
/// ``GraphQLSyntaxError`` whose ``GraphQLSyntaxError/limit`` names the bound.
///
/// Nesting is counted across selection sets, list and object values and list types together. The
/// parser does not recurse on nesting, so its own stack use is the same at any depth; ``maxDepth``
/// bounds the tree for the code that walks it recursively afterwards (printers, validators,
/// synthesized `Equatable` and `Hashable`, and the release of nested arrays), so keep it in the
/// hundreds. The defaults are safe on a thread with a 512 KiB stack.
public struct Limits: Sendable, Hashable {
    /// One of the bounds, as reported by an error that exceeded it.
    public enum Limit: String, Sendable, Hashable, CaseIterable {
        /// ``Limits/maxBytes``.
        case bytes
        /// ``Limits/maxTokens``.
        case tokens
        /// ``Limits/maxIgnoredTokens``.
        case ignoredTokens
        /// ``Limits/maxDepth``.
        case depth
    }

    /// The largest accepted text, in bytes.
    public var maxBytes: Int
    /// The most significant tokens (names, punctuators, literals) accepted.
    public var maxTokens: Int
    /// The most ignored tokens accepted: each run of white space and line terminators, each comment
    /// and each comma counts as one.
    public var maxIgnoredTokens: Int
    /// The deepest nesting of selection sets, list values, object values and list types accepted.
    public var maxDepth: Int

    /// Creates a set of limits.
    /// - Parameters:
    ///   - maxBytes: The largest accepted text, in bytes.
    ///   - maxTokens: The most significant tokens accepted.
    ///   - maxIgnoredTokens: The most ignored tokens (white space runs, comments, commas) accepted.
    ///   - maxDepth: The deepest nesting accepted.
    public init(maxBytes: Int, maxTokens: Int, maxIgnoredTokens: Int, maxDepth: Int) {
        self.maxBytes = maxBytes
        self.maxTokens = maxTokens
        self.maxIgnoredTokens = maxIgnoredTokens
        self.maxDepth = maxDepth
    }

    /// For operations from clients or files: 1 MiB, 15,000 tokens, 200,000 ignored tokens, depth 128.
    public static let operations = Limits(
        maxBytes: 1 << 20, maxTokens: 15_000, maxIgnoredTokens: 200_000, maxDepth: 128
    )

    /// For schemas: 64 MiB, 5,000,000 tokens, 10,000,000 ignored tokens, depth 256.
    public static let schemas = Limits(
        maxBytes: 64 << 20, maxTokens: 5_000_000, maxIgnoredTokens: 10_000_000, maxDepth: 256
    )
}
