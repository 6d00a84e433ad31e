import Foundation

/// Turns request parameters into part of an `HTTPRequest`: its query, or its body and `Content-Type`.
///
/// Encoders run only in the pipeline's encode stage (step 5), right before the transport call,
/// and again on every retry; building an endpoint never encodes anything. An encoder must be
/// deterministic: the same parameters give the same bytes.
///
/// Pick one with a leading dot: `.json`, `.query`, `.query(arrays: .repeated)`, `.form`,
/// `.multipart`. Implementing one:
/// ```swift
/// struct PlainTextEncoder: ParameterEncoder {
///     func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
///                 context: ParameterEncodingContext) throws {
///         guard let text = parameters as? String else {
///             throw GatewayError(.encoding, "plain-text parameters must be a String")
///         }
///         request.body = .data(Data(text.utf8))
///         request.headers["Content-Type"] = "text/plain; charset=utf-8"
///     }
/// }
/// ```
public protocol ParameterEncoder: Sendable {
    /// Encodes `parameters` into `request`.
    ///
    /// - Parameters:
    ///   - parameters: the values to encode.
    ///   - request: the request being built; the encoder sets its query, or its body and headers.
    ///   - context: the provider's defaults (JSON settings) for encoders that follow them.
    /// - Throws: `GatewayError` of kind `.encoding` saying what could not be encoded and where.
    func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                context: ParameterEncodingContext) throws
}

extension ParameterEncoder {
    /// Encodes `parameters` into `request` with default settings (JSON options of a fresh provider).
    ///
    /// - Throws: `GatewayError` of kind `.encoding`.
    public func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest) throws {
        try encode(parameters, into: &request, context: ParameterEncodingContext())
    }
}

/// What the encode stage tells an encoder about the provider it runs in.
public struct ParameterEncodingContext: Sendable {
    /// The provider's JSON settings, used by `.json` when it was not given its own.
    public var json: JSONEncodingOptions
    /// The endpoint or operation name, for error messages.
    public var endpoint: String?

    /// Creates a context.
    public init(json: JSONEncodingOptions = JSONEncodingOptions(), endpoint: String? = nil) {
        self.json = json
        self.endpoint = endpoint
    }
}

/// Parameters paired with the encoder that turns them into part of the request.
///
/// Holding both keeps encoding out of construction: the pair is stored in the endpoint and
/// applied in the pipeline's encode stage.
public struct RequestParameters: Sendable {
    /// The values to encode.
    public var value: any Encodable & Sendable
    /// How to encode them.
    public var encoder: any ParameterEncoder

    /// Pairs `value` with `encoder`.
    public init(_ value: any Encodable & Sendable, encoder: any ParameterEncoder) {
        self.value = value
        self.encoder = encoder
    }
}

extension HTTPRequest {
    /// Sets a body produced by an encoder; a request that already has one is an error, since two
    /// body encoders on one request would silently drop the first body.
    mutating func setEncodedBody(_ body: Body, contentType: String, replacingContentType: Bool,
                                 encoder: String) throws {
        try requireNoBody(encoder: encoder)
        self.body = body
        if replacingContentType || !headers.contains("Content-Type") { headers["Content-Type"] = contentType }
    }

    /// Throws when the request already has a body.
    func requireNoBody(encoder: String) throws {
        guard body != nil else { return }
        throw GatewayError(
            .encoding, "the \(encoder) encoder found a request that already has a body",
            fix: "give the request one body encoder (.json, .form or .multipart); use .query for URL parameters")
    }
}
