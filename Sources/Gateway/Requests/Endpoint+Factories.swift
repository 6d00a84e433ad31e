import Foundation

/// The factories: every method takes its query the same two ways, as `[URLQueryItem]` sent as
/// given, or as an `Encodable` value written into the URL by a `QueryParameterEncoder`
/// (`.query` by default); POST, PUT, PATCH and DELETE also take a body.
///
/// ```swift
/// let page = Endpoint<[Track]>.get("tracks", query: ["page": 2, "size": 50])
/// let search = Endpoint<[Track]>.post("tracks/search", body: filter, query: ["page": 2])
/// let items = Endpoint<Empty>.delete("tracks", query: [URLQueryItem(name: "id", value: "t1")])
/// ```
extension Endpoint where Value: Decodable {
    /// A request with `method` and an optional body, decoded automatically (`Data` raw,
    /// `Empty` ignored, anything else as JSON with the provider's settings).
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - path: the path relative to the base URL.
    ///   - query: query items sent as given.
    ///   - headers: header fields for this endpoint.
    ///   - body: parameters, encoded by `encoder` when the request is sent.
    ///   - encoder: `.json`, `.form`, `.multipart`, `.query` or your own.
    public static func request(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:],
        body: (any Encodable & Sendable)? = nil, encoder: some ParameterEncoder = .json
    ) -> Endpoint {
        Endpoint(method: method, path: path, query: query, headers: headers,
                 parameters: body.map { [RequestParameters($0, encoder: encoder)] } ?? [], decoding: .automatic)
    }

    /// A request with `method`, query parameters written into the URL by `queryEncoder`, and an
    /// optional body.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - path: the path relative to the base URL.
    ///   - query: a struct or dictionary whose members become the query items.
    ///   - queryEncoder: how arrays, booleans and dates are written: `.query` by default.
    ///   - headers: header fields for this endpoint.
    ///   - body: parameters, encoded by `encoder` when the request is sent.
    ///   - encoder: `.json`, `.form`, `.multipart` or your own.
    public static func request(
        _ method: HTTPMethod, _ path: String, query: some Encodable & Sendable,
        queryEncoder: QueryParameterEncoder = .query, headers: HTTPHeaders = [:],
        body: (any Encodable & Sendable)? = nil, encoder: some ParameterEncoder = .json
    ) -> Endpoint {
        var endpoint = request(method, path, headers: headers, body: body, encoder: encoder)
        endpoint.parameters.insert(RequestParameters(query, encoder: queryEncoder), at: 0)
        return endpoint
    }

    /// A GET request.
    public static func get(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.get, path, query: query, headers: headers)
    }

    /// A GET request whose `query` is written into the URL by `queryEncoder`.
    public static func get(
        _ path: String, query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.get, path, query: query, queryEncoder: queryEncoder, headers: headers)
    }

    /// A GET request whose `parameters` are encoded into the URL (`.query` by default): the same
    /// as `get(_:query:queryEncoder:headers:)`, with any encoder.
    ///
    /// ```swift
    /// Endpoint<[Track]>.get("tracks", parameters: ["ids": [1, 2]], encoder: .query(arrays: .repeated))
    /// ```
    public static func get(
        _ path: String, parameters: some Encodable & Sendable, encoder: some ParameterEncoder = .query,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.get, path, headers: headers, body: parameters, encoder: encoder)
    }

    /// A POST request without a body.
    public static func post(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.post, path, query: query, headers: headers)
    }

    /// A POST request without a body whose `query` is written into the URL by `queryEncoder`.
    public static func post(
        _ path: String, query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.post, path, query: query, queryEncoder: queryEncoder, headers: headers)
    }

    /// A POST request whose `body` is encoded by `encoder` (`.json` by default).
    public static func post(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.post, path, query: query, headers: headers, body: body, encoder: encoder)
    }

    /// A POST request whose `body` is encoded by `encoder` and whose `query` is written into the
    /// URL by `queryEncoder`.
    public static func post(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query, headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.post, path, query: query, queryEncoder: queryEncoder, headers: headers, body: body, encoder: encoder)
    }
}
