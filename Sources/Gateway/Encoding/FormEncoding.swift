import Foundation

/// Writes parameters as an `application/x-www-form-urlencoded` body.
///
/// The same rules as `QueryParameterEncoder` (sorted keys, the array, boolean and date
/// strategies, `a[b]=` for nested objects, RFC 3986 escaping) except that a space is written as
/// `+` (and a literal `+` as `%2B`). Sets `Content-Type: application/x-www-form-urlencoded;
/// charset=utf-8` unless the request already has a `Content-Type`.
public struct FormParameterEncoder: ParameterEncoder {
    /// The media type this encoder writes.
    public static let contentType = "application/x-www-form-urlencoded; charset=utf-8"

    /// How arrays, booleans and dates are written.
    public var options: URLEncodingOptions

    /// Creates a form encoder.
    public init(options: URLEncodingOptions = URLEncodingOptions()) { self.options = options }

    /// Sets the encoded parameters as the request body.
    ///
    /// - Throws: `GatewayError` of kind `.encoding` for parameters without names, values that
    ///   cannot be written, or a request that already has a body.
    public func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                       context: ParameterEncodingContext) throws {
        let body = URLEncodedPairs.join(
            try URLEncodedPairs.pairs(for: parameters, options: options, encoder: "form"), spaceAsPlus: true)
        try request.setEncodedBody(.data(Data(body.utf8)), contentType: Self.contentType,
                                   replacingContentType: false, encoder: "form")
    }
}

extension ParameterEncoder where Self == FormParameterEncoder {
    /// A form body with the default strategies: `a[]=1`, booleans as `1`/`0`, ISO 8601 dates.
    public static var form: FormParameterEncoder { FormParameterEncoder() }

    /// A form body with the given strategies (see `query(arrays:bools:dates:)`).
    public static func form(
        arrays: URLEncodingOptions.ArrayEncoding = .brackets,
        bools: URLEncodingOptions.BoolEncoding = .numeric,
        dates: URLEncodingOptions.DateEncoding = .iso8601
    ) -> FormParameterEncoder {
        FormParameterEncoder(options: URLEncodingOptions(arrays: arrays, bools: bools, dates: dates))
    }
}
