import Foundation

/// PUT, PATCH, DELETE and HEAD in the same forms as GET and POST (see `Endpoint+Factories.swift`):
/// the query as `[URLQueryItem]` or as an `Encodable` value, with a body or without (HEAD never
/// has one).
extension Endpoint where Value: Decodable {
    /// A PUT request without a body.
    public static func put(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.put, path, query: query, headers: headers)
    }

    /// A PUT request without a body whose `query` is written into the URL by `queryEncoder`.
    public static func put(
        _ path: String, query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.put, path, query: query, queryEncoder: queryEncoder, headers: headers)
    }

    /// A PUT request whose `body` is encoded by `encoder` (`.json` by default).
    public static func put(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.put, path, query: query, headers: headers, body: body, encoder: encoder)
    }

    /// A PUT request whose `body` is encoded by `encoder` and whose `query` is written into the
    /// URL by `queryEncoder`.
    public static func put(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query, headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.put, path, query: query, queryEncoder: queryEncoder, headers: headers, body: body, encoder: encoder)
    }

    /// A PATCH request without a body.
    public static func patch(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.patch, path, query: query, headers: headers)
    }

    /// A PATCH request without a body whose `query` is written into the URL by `queryEncoder`.
    public static func patch(
        _ path: String, query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.patch, path, query: query, queryEncoder: queryEncoder, headers: headers)
    }

    /// A PATCH request whose `body` is encoded by `encoder` (`.json` by default).
    public static func patch(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.patch, path, query: query, headers: headers, body: body, encoder: encoder)
    }

    /// A PATCH request whose `body` is encoded by `encoder` and whose `query` is written into
    /// the URL by `queryEncoder`.
    public static func patch(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query, headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.patch, path, query: query, queryEncoder: queryEncoder, headers: headers, body: body, encoder: encoder)
    }

    /// A DELETE request.
    public static func delete(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.delete, path, query: query, headers: headers)
    }

    /// A DELETE request whose `query` is written into the URL by `queryEncoder`.
    public static func delete(
        _ path: String, query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.delete, path, query: query, queryEncoder: queryEncoder, headers: headers)
    }

    /// A DELETE request whose `body` is encoded by `encoder` (`.json` by default), for APIs that
    /// take one.
    public static func delete(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.delete, path, query: query, headers: headers, body: body, encoder: encoder)
    }

    /// A DELETE request whose `body` is encoded by `encoder` and whose `query` is written into
    /// the URL by `queryEncoder`.
    public static func delete(
        _ path: String, body: some Encodable & Sendable, encoder: some ParameterEncoder = .json,
        query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query, headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.delete, path, query: query, queryEncoder: queryEncoder, headers: headers, body: body, encoder: encoder)
    }

    /// A HEAD request (use `Endpoint<Empty>`).
    public static func head(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> Endpoint {
        request(.head, path, query: query, headers: headers)
    }

    /// A HEAD request whose `query` is written into the URL by `queryEncoder` (use `Endpoint<Empty>`).
    public static func head(
        _ path: String, query: some Encodable & Sendable, queryEncoder: QueryParameterEncoder = .query,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        request(.head, path, query: query, queryEncoder: queryEncoder, headers: headers)
    }
}
