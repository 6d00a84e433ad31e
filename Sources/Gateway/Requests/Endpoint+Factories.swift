import Foundation

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

    /// A GET request.
    public static func get(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.get, path, query: query, headers: headers)
    }

    /// A GET request whose `parameters` are encoded into the URL (`.query` by default).
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

    /// A POST request whose `body` is encoded by `encoder` (`.json` by default).
    public static func post(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.post, path, query: query, headers: headers, body: body, encoder: encoder)
    }

    /// A PUT request whose `body` is encoded by `encoder` (`.json` by default).
    public static func put(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.put, path, query: query, headers: headers, body: body, encoder: encoder)
    }

    /// A PATCH request whose `body` is encoded by `encoder` (`.json` by default).
    public static func patch(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.patch, path, query: query, headers: headers, body: body, encoder: encoder)
    }

    /// A DELETE request.
    public static func delete(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.delete, path, query: query, headers: headers)
    }

    /// A HEAD request (use `Endpoint<Empty>`).
    public static func head(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.head, path, query: query, headers: headers)
    }
}
