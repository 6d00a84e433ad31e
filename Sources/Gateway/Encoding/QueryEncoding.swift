import Foundation

/// Writes parameters into the URL's query: `?a%5B%5D=1&a%5B%5D=2&flag=1`.
///
/// Keys are sorted, arrays, booleans and dates follow `options`, nested objects are written as
/// `a[b]=…`, and every name and value is escaped by RFC 3986 (unreserved characters kept,
/// everything else percent-encoded, a space as `%20`, brackets as `%5B` and `%5D`). The pairs
/// are appended after any query the URL already has.
public struct QueryParameterEncoder: ParameterEncoder {
    /// How arrays, booleans and dates are written.
    public var options: URLEncodingOptions

    /// Creates a query encoder.
    public init(options: URLEncodingOptions = URLEncodingOptions()) { self.options = options }

    /// Appends the encoded parameters to `request.url`'s query.
    ///
    /// - Throws: `GatewayError` of kind `.encoding` for parameters without names (an array or a
    ///   single value) or values that cannot be written (nested too deep, not finite).
    public func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                       context: ParameterEncodingContext) throws {
        let query = URLEncodedPairs.join(
            try URLEncodedPairs.pairs(for: parameters, options: options, encoder: "query"), spaceAsPlus: false)
        request.url = try Self.appending(query: query, to: request.url)
    }

    /// `url` with `query` (already escaped) appended to its query, before any fragment.
    static func appending(query: String, to url: URL) throws -> URL {
        guard !query.isEmpty else { return url }
        var text = url.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        if let question = text.firstIndex(of: "?") {
            let existing = text[text.index(after: question)...]
            text += existing.isEmpty || existing.hasSuffix("&") ? query : "&" + query
        } else {
            text += "?" + query
        }
        guard let result = URL(string: text + fragment) else {
            throw GatewayError(.encoding, "the query encoder produced a URL that cannot be parsed",
                               fix: "check the base URL and the endpoint path")
        }
        return result
    }
}

extension ParameterEncoder where Self == QueryParameterEncoder {
    /// URL query parameters with the default strategies: `a[]=1`, booleans as `1`/`0`, ISO 8601 dates.
    public static var query: QueryParameterEncoder { QueryParameterEncoder() }

    /// URL query parameters with the given strategies.
    ///
    /// - Parameters:
    ///   - arrays: `.brackets` (`a[]=1&a[]=2`), `.repeated` (`a=1&a=2`) or `.indexed` (`a[0]=1&a[1]=2`).
    ///   - bools: `.numeric` (`1`/`0`) or `.literal` (`true`/`false`).
    ///   - dates: `.secondsSince1970`, `.millisecondsSince1970`, `.iso8601` or `.custom(formatter)`.
    public static func query(
        arrays: URLEncodingOptions.ArrayEncoding = .brackets,
        bools: URLEncodingOptions.BoolEncoding = .numeric,
        dates: URLEncodingOptions.DateEncoding = .iso8601
    ) -> QueryParameterEncoder {
        QueryParameterEncoder(options: URLEncodingOptions(arrays: arrays, bools: bools, dates: dates))
    }
}
