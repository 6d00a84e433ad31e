import GraphQLLanguage

/// How a provider sends GraphQL operations; `Provider.Configuration.graphQL`.
///
/// ```swift
/// let provider = Provider(baseURL: api) { config in
///     config.graphQL.path = "graphql"                 // https://api.example.com/graphql
///     config.graphQL.persistedQueries = .enabled
///     config.graphQL.unauthenticated = .code("UNAUTHENTICATED").or(.code("TOKEN_EXPIRED"))
/// }
/// ```
public struct GraphQLSettings: Sendable {
    /// The endpoint's path relative to the provider's base URL: `graphql` by default; an empty
    /// path is the base URL itself.
    public var path = "graphql"
    /// Whether queries go by GET (mutations always POST); POST by default.
    public var usesGETForQueries = false
    /// Automatic persisted queries; disabled by default.
    public var persistedQueries = PersistedQueries.disabled
    /// Whether `query` carries the normalized (compact) text instead of the printed text; an
    /// operation of a generated type always sends its generated text.
    public var sendsNormalizedText = false
    /// Which GraphQL errors mean "not authenticated": `extensions.code == "UNAUTHENTICATED"` by
    /// default. An answer with such an error and no data is thrown as `.unauthenticated`, and a
    /// response with one has `isUnauthenticated` set. What starts a token refresh is the
    /// authenticator's `isUnauthenticated`; when you change this predicate, give the authenticator
    /// the same one with `UnauthenticatedPredicate.graphQLErrors(_:)`.
    public var unauthenticated = GraphQLErrorPredicate.unauthenticated
    /// The header that carries a mutation's idempotency key: `Idempotency-Key`.
    public var idempotencyKeyHeader = "Idempotency-Key"
    /// How `Provider.subscribe` carries subscriptions: multipart HTTP by default.
    public var subscriptions = SubscriptionProtocol.multipart
    /// The most events a subscription holds for a consumer that has not read them yet: 10,000
    /// by default (at least 1). One more ends the subscription with `.consumerBehind`, so that a
    /// consumer slower than the server cannot make memory grow without end.
    public var subscriptionBufferLimit = 10_000

    /// The default settings.
    public init() {}
}

/// Settings for one GraphQL request; `nil` members follow the provider's `GraphQLSettings`.
///
/// ```swift
/// var options = GraphQLRequestOptions()
/// options.idempotencyKey = UUID().uuidString      // the mutation may now be retried
/// options.priority = .high
/// let liked = try await provider.fetch(operations["LikeTrack"], variables: ["input": ["trackID": "t1"]],
///                                      as: JSONValue.self, options: options)
/// ```
/// `JSONValue`, the data as plain JSON, needs `import GraphQLLanguage`.
public struct GraphQLRequestOptions: Sendable {
    /// Persisted queries for this request; the provider's when `nil`.
    public var persistedQueries: PersistedQueries?
    /// Whether a query goes by GET; the provider's `usesGETForQueries` when `nil`.
    public var usesGET: Bool?
    /// Header fields for this request (replacing the provider's defaults of the same names).
    public var headers: HTTPHeaders = [:]
    /// Extensions sent with the request, besides `persistedQuery`.
    public var extensions: JSONObject = [:]
    /// A key that makes a mutation safe to retry: sent in the idempotency key header, the same
    /// on every attempt.
    public var idempotencyKey: String?
    /// The dispatch priority.
    public var priority: RequestPriority = .medium
    /// Whether the auth stage attaches credentials.
    public var requiresAuthentication = true
    /// The longest wait for any single network activity; the provider's default when `nil`.
    public var timeout: Duration?
    /// The budget of the whole call; the provider's default when `nil`.
    public var deadline: Duration?
    /// The largest response body accepted; the provider's default when `nil`.
    public var maxResponseBytes: Int?
    /// How the request uses the response cache: policy, time to live, tags.
    public var cache = CacheSettings()

    /// The default options.
    public init() {}
}
