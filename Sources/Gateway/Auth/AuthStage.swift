import Foundation
import GraphQLLanguage

/// Attaches credentials: the pipeline's step 4, after the queue and before encoding.
///
/// It receives the built request once per request (retries reuse its result) and returns it
/// with credentials attached, or unchanged for a request with `requiresAuthentication == false`
/// or one that leaves the provider's origin. It may wait (while a token is refreshed); a stage
/// that waits must throw `CancellationError` promptly when cancelled.
///
/// Implementing one:
/// ```swift
/// struct APIKeyAuth: AuthStage {
///     let key: String
///     func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
///         guard request.requiresAuthentication, Origin(request.url) == Origin(context.baseURL) else { return request }
///         var request = request
///         request.headers["X-API-Key"] = key
///         return request
///     }
/// }
/// ```
public protocol AuthStage: Sendable {
    /// Returns `request` with credentials attached, or unchanged.
    ///
    /// - Throws: `GatewayError` when no credential can be had; `CancellationError` when cancelled.
    func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest

    /// Whose data the responses to `request` are, for the response cache: a partition named by
    /// the credential this stage would attach (never the credential itself), `.anonymous` when
    /// it attaches none, or `nil` when it cannot tell, and then the response is not cached.
    ///
    /// Asked only for requests that require authentication when the provider has no token
    /// store (with one, the credential's subject is the partition). The default is `nil`, so a
    /// stage that does not say keeps its users' responses out of the cache rather than risk
    /// handing one user's data to another.
    func cachePartition(for request: PreparedRequest) async -> CachePartition?
}

extension AuthStage {
    /// `nil`: the responses of requests this stage authorizes are not cached.
    public func cachePartition(for request: PreparedRequest) async -> CachePartition? { nil }
}

extension CachePartition {
    /// A partition named by a secret's SHA-256 (never the secret), so that two credentials never
    /// share entries.
    ///
    /// - Parameters:
    ///   - kind: what the secret is (`bearer`, `authorization`), part of the name.
    ///   - secret: the credential.
    public static func credential(_ kind: String, _ secret: String) -> CachePartition {
        .subject(kind + "-sha256:" + SHA256.hexDigest(secret).prefix(32))
    }
}

/// The pass-through auth stage: attaches nothing.
public struct NoAuthentication: AuthStage {
    /// Creates the pass-through stage.
    public init() {}
    /// Returns the request unchanged.
    public func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        request
    }

    /// A partition named by the request's own `Authorization` field when it has one, else anonymous.
    public func cachePartition(for request: PreparedRequest) async -> CachePartition? {
        request.headers["Authorization"].map { .credential("authorization", $0) } ?? .anonymous
    }
}

/// A fixed bearer token, sent as `Authorization: Bearer …` to the provider's own origin only and
/// only on requests that require authentication. Neither its description nor `dump()` shows the
/// token.
public struct BearerTokenAuthentication: AuthStage, CustomStringConvertible, CustomReflectable {
    private let token: String
    /// The partition, hashed once rather than for every request.
    private let partition: CachePartition
    /// The header value, put together once.
    private let authorization: String

    /// Creates the stage with `token`.
    public init(token: String) {
        self.token = token
        partition = .credential("bearer", token)
        authorization = "Bearer \(token)"
    }

    /// Attaches the token when the request requires authentication and goes to the base URL's origin.
    public func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        guard request.requiresAuthentication, Origin.isSame(request.url, as: context.baseURL) else { return request }
        var request = request
        request.headers["Authorization"] = authorization
        return request
    }

    /// A partition named by the token's SHA-256.
    public func cachePartition(for request: PreparedRequest) async -> CachePartition? { partition }

    /// The type with the token redacted.
    public var description: String { "BearerTokenAuthentication(token: \(Redaction.placeholder))" }
    /// Shows the token as `<redacted>`.
    public var customMirror: Mirror { Mirror(self, children: ["token": Redaction.placeholder]) }
}

extension AuthStage where Self == NoAuthentication {
    /// Attaches nothing.
    public static var none: NoAuthentication { NoAuthentication() }
}

extension AuthStage where Self == BearerTokenAuthentication {
    /// A fixed bearer token for the provider's own origin.
    public static func bearer(_ token: String) -> BearerTokenAuthentication { BearerTokenAuthentication(token: token) }
}
