import Foundation

/// Writes parameters as a JSON body and sets `Content-Type: application/json` (unless the
/// request already has a `Content-Type`).
///
/// With no options of its own it follows the provider's `Configuration.jsonEncoding`; keys are
/// sorted by default, so the same value always gives the same bytes.
public struct JSONParameterEncoder: ParameterEncoder {
    /// The media type this encoder writes.
    public static let contentType = "application/json"

    /// The settings to use; `nil` follows the provider's.
    public var options: JSONEncodingOptions?

    /// Creates a JSON encoder; `nil` options follow the provider's.
    public init(options: JSONEncodingOptions? = nil) { self.options = options }

    /// Sets the JSON of `parameters` as the request body.
    ///
    /// - Throws: `GatewayError` of kind `.encoding` naming the coding path of a value `JSONEncoder`
    ///   refused, or for a request that already has a body.
    public func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                       context: ParameterEncodingContext) throws {
        let data: Data
        do {
            data = try (options ?? context.json).makeEncoder().encode(parameters)
        } catch let error as EncodingError {
            throw GatewayError(
                .encoding, "the JSON encoder could not encode \(URLEncodedPairs.typeName(parameters)): "
                    + URLEncodedPairs.describe(error), underlying: error)
        } catch let error as GatewayError {
            throw error
        } catch {
            throw GatewayError(.encoding, "the JSON encoder could not encode \(URLEncodedPairs.typeName(parameters))",
                               underlying: error)
        }
        try request.setEncodedBody(.data(data), contentType: Self.contentType, replacingContentType: false,
                                   encoder: "JSON")
    }
}

extension ParameterEncoder where Self == JSONParameterEncoder {
    /// A JSON body with the provider's JSON settings (sorted keys unless configured otherwise).
    public static var json: JSONParameterEncoder { JSONParameterEncoder() }

    /// A JSON body with its own settings.
    ///
    /// - Parameters:
    ///   - sortedKeys: write object keys in sorted order (deterministic bytes); on by default.
    ///   - dates: how dates are written.
    ///   - keys: how property names become keys.
    public static func json(
        sortedKeys: Bool = true,
        dates: JSONEncodingOptions.DateEncoding = .deferredToDate,
        keys: JSONEncodingOptions.KeyEncoding = .useDefaultKeys
    ) -> JSONParameterEncoder {
        JSONParameterEncoder(options: JSONEncodingOptions(sortedKeys: sortedKeys, dates: dates, keys: keys))
    }
}
