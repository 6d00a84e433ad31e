import GraphQLLanguage

/// Automatic persisted queries (APQ): send the SHA-256 hash of the query text instead of the
/// text, and the text only when the server does not know the hash yet.
///
/// The first request carries `extensions.persistedQuery = {"version": 1, "sha256Hash": "…"}` and
/// no `query`; a server that answers `PersistedQueryNotFound` gets the same request again with
/// the text, and stores it under the hash. The hash is over the exact text sent (the printed
/// text, or the normalized text with `GraphQLSettings.sendsNormalizedText`); it is separate from
/// the cache key, which is the same with and without APQ.
///
/// ```swift
/// config.graphQL.persistedQueries = .enabled                    // hashed queries by POST
/// config.graphQL.persistedQueries = .enabled(usingGET: true)    // hashed queries by GET (CDN-cacheable)
/// ```
public struct PersistedQueries: Sendable, Hashable, CustomStringConvertible {
    /// Whether operations are sent by hash first.
    public var isEnabled: Bool
    /// Whether a hash-only query goes by GET; mutations and the request carrying the text are
    /// always POST.
    public var usesGETForHashedQueries: Bool

    /// Creates a setting.
    public init(isEnabled: Bool, usesGETForHashedQueries: Bool = false) {
        self.isEnabled = isEnabled
        self.usesGETForHashedQueries = usesGETForHashedQueries
    }

    /// The text is always sent.
    public static let disabled = PersistedQueries(isEnabled: false)
    /// Hash first, by POST.
    public static let enabled = PersistedQueries(isEnabled: true)

    /// Hash first; hash-only queries by GET when `usingGET`.
    public static func enabled(usingGET: Bool) -> PersistedQueries {
        PersistedQueries(isEnabled: true, usesGETForHashedQueries: usingGET)
    }

    /// `disabled`, `enabled`, or `enabled (GET for hashed queries)`.
    public var description: String {
        guard isEnabled else { return "disabled" }
        return usesGETForHashedQueries ? "enabled (GET for hashed queries)" : "enabled"
    }
}

/// The wire details of APQ (Apollo's protocol, version 1).
enum PersistedQueryProtocol {
    /// `{"version": 1, "sha256Hash": hash}`.
    static func extensionValue(hash: String) -> JSONValue {
        .object(["version": 1, "sha256Hash": .string(hash)])
    }

    /// Whether the errors say the server does not have the hash (or does not do APQ at all):
    /// the request should go again with its text.
    static func asksForText(_ errors: [GraphQLError]) -> Bool {
        errors.contains { error in
            let code = error.code
            return error.message == "PersistedQueryNotFound" || code == "PERSISTED_QUERY_NOT_FOUND"
                || error.message == "PersistedQueryNotSupported" || code == "PERSISTED_QUERY_NOT_SUPPORTED"
        }
    }
}
