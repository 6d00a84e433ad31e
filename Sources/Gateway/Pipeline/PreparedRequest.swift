import Foundation

/// A request built but not yet encoded: the output of the build stage (step 1), changed by the
/// auth stage (step 4) and turned into an `HTTPRequest` by the encode stage (step 5) on every
/// attempt.
///
/// Its parameters stay unencoded values with their encoders, so a retry encodes them again and
/// a request cancelled before step 5 never runs an encoder.
///
/// A value like any other. The fields the pipeline changes (the header fields, the priority,
/// whether it authenticates) are stored in it; the others, set when the request is built, sit
/// in one reference that copies share until one of them changes a field (then that copy gets
/// fields of its own), so that the pipeline's copies of a request are a few words rather than
/// some 400 bytes of fields.
public struct PreparedRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// The header fields (the provider's defaults are merged under them after step 1).
    public var headers: HTTPHeaders
    /// Whether the auth stage attaches credentials.
    public var requiresAuthentication: Bool
    /// The dispatch priority.
    public var priority: RequestPriority
    /// The fields set when the request is built, copied first when another request shares them.
    private var built: Built

    /// How the request uses the response cache (`Configuration.cache` set to a `ResponseCache`).
    public var cache: CacheSettings {
        get { built.fields.cache }
        set { change { $0.cache = newValue } }
    }

    /// The endpoint or operation name.
    public var name: String {
        get { built.fields.name }
        set { change { $0.name = newValue } }
    }
    /// The request method.
    public var method: HTTPMethod {
        get { built.fields.method }
        set { change { $0.method = newValue } }
    }
    /// The full URL, with any fixed query items (encoded parameters are added in step 5).
    public var url: URL {
        get { built.fields.url }
        set { change { $0.url = newValue } }
    }
    /// Parameters with their encoders, applied in order in step 5.
    public var parameters: [RequestParameters] {
        get { built.fields.parameters }
        set { change { $0.parameters = newValue } }
    }
    /// The longest wait for any single network activity; the provider's default when `nil`.
    public var timeout: Duration? {
        get { built.fields.timeout }
        set { change { $0.timeout = newValue } }
    }
    /// The budget of the whole call from the start of `send`; the provider's default when `nil`.
    public var deadline: Duration? {
        get { built.fields.deadline }
        set { change { $0.deadline = newValue } }
    }
    /// The largest response body accepted; the provider's default when `nil`.
    public var maxResponseBytes: Int? {
        get { built.fields.maxResponseBytes }
        set { change { $0.maxResponseBytes = newValue } }
    }
    /// Whether the retry policy may send the request again (by default: when the method is
    /// idempotent). A GraphQL query sets `.idempotent`; a mutation sets `.idempotent` only when
    /// it carries an idempotency key in `headers` (the same on every attempt), else `.never`.
    public var retryability: Retryability {
        get { built.fields.retryability }
        set { change { $0.retryability = newValue } }
    }
    /// Whether the request waits for the network to become usable; the provider's setting when `nil`.
    public var waitsForConnectivity: Bool? {
        get { built.fields.waitsForConnectivity }
        set { change { $0.waitsForConnectivity = newValue } }
    }
    /// For a GraphQL operation: what its cache key is made of, and whether it is a query.
    package var graphQLCache: GraphQLCacheIdentity? {
        get { built.fields.graphQLCache }
        set { change { $0.graphQLCache = newValue } }
    }
    /// For a GraphQL operation sent by its persisted-query hash alone: the form that sends the
    /// text with the hash, which step 8 turns to when the server does not know the hash.
    package var persistedQueryFollowUp: PersistedQueryFollowUp? {
        get { built.fields.persistedQueryFollowUp }
        set { change { $0.persistedQueryFollowUp = newValue } }
    }
    /// Whether the request is sent by a persisted-query hash: `.hit` for the hash alone,
    /// `.registered` for the hash with the text.
    package var persistedQueryUse: PersistedQueryOutcome {
        get { built.fields.persistedQueryUse }
        set { change { $0.persistedQueryUse = newValue } }
    }
    /// Where step 7 puts the response's body: in memory, or a download's file.
    var responseBody: BodyDestination {
        get { built.fields.responseBody }
        set { change { $0.responseBody = newValue } }
    }
    /// Where the transport reports the body's bytes sent, for an upload (step 5 passes it on).
    var bodyProgress: BodyProgress? {
        get { built.fields.bodyProgress }
        set { change { $0.bodyProgress = newValue } }
    }

    /// Creates a prepared request.
    public init(
        name: String, method: HTTPMethod, url: URL, headers: HTTPHeaders = [:],
        parameters: [RequestParameters] = [], requiresAuthentication: Bool = true,
        priority: RequestPriority = .medium, timeout: Duration? = nil, deadline: Duration? = nil,
        maxResponseBytes: Int? = nil, retryability: Retryability = .automatic, waitsForConnectivity: Bool? = nil
    ) {
        self.headers = headers
        self.requiresAuthentication = requiresAuthentication
        self.priority = priority
        built = Built(Fields(name: name, method: method, url: url, parameters: parameters, timeout: timeout,
                             deadline: deadline, maxResponseBytes: maxResponseBytes, retryability: retryability,
                             waitsForConnectivity: waitsForConnectivity))
    }

    /// Joins `path` to `baseURL` by the safe rules of `Endpoint` paths.
    ///
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a path that would leave the base
    ///   URL or contains `?` or `#`.
    public static func url(_ baseURL: URL, _ path: String, options: PathOptions = []) throws -> URL {
        try PathJoining.join(base: baseURL, path: path, options: options)
    }

    /// `METHOD url` with sensitive query items redacted.
    public var description: String { "\(method) \(Redaction.redactedURL(url))" }

    /// Shows no header values or parameter values, only their names and encoders.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "name": name,
            "method": method.rawValue,
            "url": Redaction.redactedURL(url),
            "headers": headers.description,
            "parameters": parameters.map { String(describing: type(of: $0.encoder)) },
            "requiresAuthentication": requiresAuthentication,
            "priority": priority.description,
            "retryability": retryability.description,
        ], displayStyle: .struct)
    }

    /// Sets one of the fields fixed when the request was built: in place when no other request
    /// shares them, else in a copy of them.
    private mutating func change(_ apply: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&built) { built = Built(built.fields) }
        apply(&built.fields)
    }

    /// The fields set when the request is built.
    private struct Fields: Sendable {
        var name: String
        var method: HTTPMethod
        var url: URL
        var parameters: [RequestParameters]
        var timeout: Duration?
        var deadline: Duration?
        var maxResponseBytes: Int?
        var retryability: Retryability
        var waitsForConnectivity: Bool?
        var graphQLCache: GraphQLCacheIdentity?
        var persistedQueryFollowUp: PersistedQueryFollowUp?
        var persistedQueryUse = PersistedQueryOutcome.notUsed
        var responseBody = BodyDestination.memory
        var bodyProgress: BodyProgress?
        var cache = CacheSettings()
    }

    /// The one reference copies of a request share. Changed only through `change(_:)`, when no
    /// other request shares it, so a shared instance is never written (what makes it safe to send).
    private final class Built: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }
}
