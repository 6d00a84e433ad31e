import Foundation

/// Anything the pipeline can send: a REST `Endpoint`, and (with the GraphQL layer) an operation.
///
/// The pipeline asks a requestable three things, at fixed steps: how to build the request
/// (step 1), whether a response that no interceptor settled is a success (step 8), and
/// how to decode a successful one (step 9). Everything else — queue, auth, encoding,
/// interceptors, transport, retries, cache, metrics — is the pipeline's and the same for every
/// kind of request.
///
/// Implementing one:
/// ```swift
/// struct Ping: Requestable {
///     var name: String { "ping" }
///     func prepare(baseURL: URL) throws -> PreparedRequest {
///         PreparedRequest(name: name, method: .get, url: try PreparedRequest.url(baseURL, "ping"))
///     }
///     func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
///         response.isSuccess ? nil : GatewayError(.status, "ping failed", response: response)
///     }
///     func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Empty { Empty() }
/// }
/// ```
public protocol Requestable: Sendable {
    /// The type of the decoded value.
    associatedtype Value: Sendable

    /// The name used in errors and by observers.
    var name: String { get }

    /// Step 1: builds the request to send, without encoding its parameters.
    ///
    /// - Parameter baseURL: the provider's base URL.
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a path or URL that cannot be used.
    func prepare(baseURL: URL) throws -> PreparedRequest

    /// Step 1 with the provider's GraphQL settings, for a requestable that follows them (a
    /// GraphQL request made without settings of its own). The default ignores them and calls
    /// `prepare(baseURL:)`.
    func prepare(baseURL: URL, graphQL: GraphQLSettings) throws -> PreparedRequest

    /// Step 8: the error a response means when no interceptor decided otherwise, or `nil`
    /// when it is a success.
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError?

    /// Step 9: decodes a successful response.
    ///
    /// - Throws: `GatewayError` of kind `.decoding`.
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Value
}

extension Requestable {
    /// Calls `prepare(baseURL:)`.
    public func prepare(baseURL: URL, graphQL: GraphQLSettings) throws -> PreparedRequest {
        try prepare(baseURL: baseURL)
    }
}
