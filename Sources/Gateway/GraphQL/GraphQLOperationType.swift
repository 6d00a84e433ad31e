import GraphQLLanguage

/// An operation whose Swift type was generated from a `.graphql` file by `gateway generate`
/// (or the build plugin): its variables are the type's stored properties, its response is
/// `Data`, and its text, normalized text and hashes were computed when it was generated, so
/// nothing is parsed when the app runs.
///
/// Generated types conform to `GraphQLQuery`, `GraphQLMutation` or `GraphQLSubscription`.
/// Encoding the value writes its variables as one JSON object: a `nil` optional is left out,
/// and the definition's `variableDefaults` fill it when they declare a default. A variable of
/// the schema's `Upload` scalar is a `GraphQLUpload`: it encodes as `null`, and `uploads` names
/// the file for the multipart request that sends it.
///
/// A generated type looks like this (written by hand, it must keep the definition true to
/// the text):
/// ```swift
/// public struct TrackTitleQuery: GraphQLQuery {
///     public static let definition = GraphQLOperationDefinition(
///         name: "TrackTitle", kind: .query,
///         text: "query TrackTitle($id: ID!) {\n  track(id: $id) {\n    title\n  }\n}",
///         normalizedText: "query TrackTitle($id:ID!){track(id:$id){title}}",
///         textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
///     public var id: String
///     public init(id: String) { self.id = id }
///     public struct Data: Decodable, Sendable {
///         public let track: Track?
///         public struct Track: Decodable, Sendable { public let title: String }
///     }
/// }
/// ```
/// and is sent by `Provider.fetch`:
/// ```swift
/// let track = try await provider.fetch(TrackTitleQuery(id: "42"))
/// print(track.data.track?.title ?? "no such track")
/// ```
public protocol GraphQLOperationType: Encodable, Sendable {
    /// The response's `data`, following the operation's selection.
    associatedtype Data: Decodable & Sendable

    /// The operation's name, kind, text and hashes, computed when the type was generated.
    static var definition: GraphQLOperationDefinition { get }

    /// The operation the type sends, made from `definition` once per type. The default keeps
    /// it in a table shared by all generated types; a type may store its own instead:
    ///
    /// ```swift
    /// public static let operation = GraphQLOperation(definition: definition)
    /// ```
    static var operation: GraphQLOperation { get }

    /// The files this value sends, keyed by the variable path each fills (`image`, or `files.0`,
    /// `files.1`… for a list of files), sent by the GraphQL multipart request specification as
    /// `provider.fetch(_:variables:uploads:as:)` sends them. The default has none; the generator
    /// writes it for an operation with `Upload` variables:
    ///
    /// ```swift
    /// public var uploads: [String: GraphQLUpload] {
    ///     var uploads: [String: GraphQLUpload] = [:]
    ///     uploads["image"] = self.image
    ///     return uploads
    /// }
    /// ```
    /// Each path must hold `null` in the encoded variables, as a `GraphQLUpload` encodes.
    var uploads: [String: GraphQLUpload] { get }
}

extension GraphQLOperationType {
    /// `GraphQLOperation(definition: definition)`, made the first time it is asked for and kept.
    ///
    /// ```swift
    /// let operation = GetTrackQuery.operation
    /// print(operation.name ?? "", operation.kind)   // GetTrack query
    /// ```
    public static var operation: GraphQLOperation { GeneratedOperations.operation(of: Self.self) }

    /// No files: an operation without `Upload` variables is sent as JSON (or by GET).
    public var uploads: [String: GraphQLUpload] { [:] }
}

/// A generated query: may be cached and sent again.
///
/// ```swift
/// let track = try await provider.fetch(GetTrackQuery(id: "42"), cachePolicy: .cacheFirst)
/// ```
public protocol GraphQLQuery: GraphQLOperationType {}

/// A generated mutation: never sent twice without an idempotency key.
///
/// ```swift
/// var options = GraphQLRequestOptions()
/// options.idempotencyKey = "like-42"   // makes the mutation safe to retry
/// let liked = try await provider.fetch(LikeTrackMutation(input: LikeTrackInput(trackID: "42")),
///                                      options: options)
/// ```
public protocol GraphQLMutation: GraphQLOperationType {}

/// A generated subscription, sent by `Provider.subscribe` (`Provider.fetch` refuses it: a
/// single HTTP response cannot carry a subscription).
///
/// ```swift
/// for try await tick in provider.subscribe(OnTickSubscription(every: 1)) {
///     print(tick.data)
/// }
/// ```
public protocol GraphQLSubscription: GraphQLOperationType {}

/// What a generated operation type carries about its operation, computed at generation time.
///
/// ```swift
/// let definition = GetTrackQuery.definition
/// print(definition.name ?? "anonymous", definition.kind, definition.textHash)
/// ```
public struct GraphQLOperationDefinition: Sendable, Hashable {
    /// The operation's name; `nil` for an anonymous operation (its type is named after its file),
    /// which is sent without an `operationName`.
    public let name: String?
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
    /// The declared defaults of the operation's variables (`$first: Int = 10` gives
    /// `["first": 10]`): a variable left out is sent with its default, as for the operation
    /// loaded from its file, so the two send the same variables and share cache entries.
    public let variableDefaults: JSONObject

    /// Makes a definition from values computed by the generator.
    ///
    /// ```swift
    /// let definition = GraphQLOperationDefinition(
    ///     name: "Ping", kind: .query, text: "query Ping {\n  ping\n}", normalizedText: "query Ping{ping}",
    ///     textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    /// ```
    ///
    /// - Parameters:
    ///   - name: the operation's name; `nil` for an anonymous operation.
    ///   - kind: query, mutation or subscription.
    ///   - text: the text sent.
    ///   - normalizedText: the normalized text of the operation as written in its file.
    ///   - textHash: the SHA-256 hex digest of `text`.
    ///   - normalizedTextHash: the SHA-256 hex digest of `normalizedText`.
    ///   - variableDefaults: the declared defaults of the variables, by name; none by default.
    public init(name: String?, kind: OperationType, text: String, normalizedText: String,
                textHash: String, normalizedTextHash: String, variableDefaults: JSONObject = [:]) {
        self.name = name
        self.kind = kind
        self.text = text
        self.normalizedText = normalizedText
        self.textHash = textHash
        self.normalizedTextHash = normalizedTextHash
        self.variableDefaults = variableDefaults
    }
}

/// The operations of generated types, made once per type.
enum GeneratedOperations {
    private static let table = Locked<[ObjectIdentifier: GraphQLOperation]>([:])

    /// The operation of `type`, made from its definition the first time.
    static func operation<Operation: GraphQLOperationType>(of type: Operation.Type) -> GraphQLOperation {
        let key = ObjectIdentifier(type)
        if let known = table.withLock({ $0[key] }) { return known }
        // Made outside the lock: `definition` is the type's code, which may do anything.
        let made = GraphQLOperation(definition: type.definition)
        return table.withLock { table in
            if let known = table[key] { return known }
            table[key] = made
            return made
        }
    }
}
