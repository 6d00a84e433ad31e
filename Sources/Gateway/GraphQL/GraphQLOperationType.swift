import GraphQLLanguage

/// An operation whose Swift type was generated from a `.graphql` file by `gateway generate`
/// (or the build plugin): its variables are the type's stored properties, its response is
/// `Data`, and its text, normalized text and hashes were computed when it was generated, so
/// nothing is parsed when the app runs.
///
/// Generated types conform to `GraphQLQuery`, `GraphQLMutation` or `GraphQLSubscription`.
/// Encoding the value writes its variables as one JSON object: a `nil` optional is left out,
/// so the server applies the declared default.
public protocol GraphQLOperationType: Encodable, Sendable {
    /// The response's `data`, following the operation's selection.
    associatedtype Data: Decodable & Sendable

    /// The operation's name, kind, text and hashes, computed when the type was generated.
    static var definition: GraphQLOperationDefinition { get }
}

/// A generated query: may be cached and sent again.
public protocol GraphQLQuery: GraphQLOperationType {}

/// A generated mutation: never sent twice without an idempotency key.
public protocol GraphQLMutation: GraphQLOperationType {}

/// A generated subscription.
public protocol GraphQLSubscription: GraphQLOperationType {}

/// What a generated operation type carries about its operation, computed at generation time.
public struct GraphQLOperationDefinition: Sendable, Hashable {
    /// The operation's name.
    public let name: String
    /// Query, mutation or subscription.
    public let kind: OperationType
    /// The text sent: the operation and the fragments it uses, printed (with `__typename`
    /// added where the generated types read it).
    public let text: String
    /// The normalized text of the operation as written in its file: cache keys use it, so a
    /// generated type and the same operation loaded from the file share cache entries.
    public let normalizedText: String
    /// The SHA-256 hex digest of `text` (persisted queries).
    public let textHash: String
    /// The SHA-256 hex digest of `normalizedText`.
    public let normalizedTextHash: String

    /// Makes a definition from values computed by the generator.
    public init(name: String, kind: OperationType, text: String, normalizedText: String,
                textHash: String, normalizedTextHash: String) {
        self.name = name
        self.kind = kind
        self.text = text
        self.normalizedText = normalizedText
        self.textHash = textHash
        self.normalizedTextHash = normalizedTextHash
    }
}
