import Foundation

/// Sends bytes exactly as given, with a content type: for a body that is already encoded (JSON text
/// typed by a person, a protobuf, a file's contents).
///
/// The parameters must be `Data` or a `String` (sent as UTF-8).
///
/// ```swift
/// Endpoint<Data>.post("events", body: jsonText, encoder: .raw(contentType: "application/json"))
/// ```
public struct RawBodyEncoder: ParameterEncoder {
    /// The `Content-Type` set unless the request already has one.
    public var contentType: String

    /// Creates an encoder that sends bytes with `contentType`.
    public init(contentType: String) { self.contentType = contentType }

    public func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                       context: ParameterEncodingContext) throws {
        let data: Data
        switch parameters {
        case let bytes as Data: data = bytes
        case let text as String: data = Data(text.utf8)
        default:
            throw GatewayError(.encoding, "the raw body encoder takes Data or String, not \(type(of: parameters))",
                               fix: "encode the value first, or use .json, .form or .multipart")
        }
        try request.setEncodedBody(.data(data), contentType: contentType, replacingContentType: false, encoder: "raw")
    }
}

extension ParameterEncoder where Self == RawBodyEncoder {
    /// Sends `Data` or a `String` as the body, unchanged, with `contentType`.
    public static func raw(contentType: String) -> RawBodyEncoder { RawBodyEncoder(contentType: contentType) }
}
