import Foundation
import GraphQLLanguage

/// Writes a `GraphQLPayload` the way GraphQL servers read it (GraphQL over HTTP):
///
/// - **POST** (the default): the JSON object `{query, operationName, variables, extensions}` as
///   the body, `Content-Type: application/json`.
/// - **GET** (queries only): `query`, `operationName`, `variables` and `extensions` as URL query
///   items, the last two as compact JSON text.
/// - **Uploads**: a `multipart/form-data` body by the GraphQL multipart request spec: an
///   `operations` part (the JSON object, each file's variable `null`), a `map` part
///   (`{"0": ["variables.image"]}`), then one part per file named `0`, `1`, ….
///
/// The method is the request's own (the build stage chooses it). The same payload always gives
/// the same bytes, except for a random multipart boundary unless a fixed one is given.
public struct GraphQLParameterEncoder: ParameterEncoder {
    /// Makes the boundary of upload bodies.
    public var boundary: MultipartBoundary

    /// Creates the encoder.
    public init(boundary: MultipartBoundary = .random) { self.boundary = boundary }

    /// Sets the body (POST, uploads) or the URL query (GET).
    ///
    /// - Throws: `GatewayError` of kind `.encoding` for parameters that are not a
    ///   `GraphQLPayload`, uploads on a GET, or a file part that cannot be read.
    public func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                       context: ParameterEncodingContext) throws {
        guard let payload = parameters as? GraphQLPayload else {
            throw GatewayError(.encoding, "the GraphQL encoder takes a GraphQLPayload, not \(type(of: parameters))",
                               fix: "send GraphQL operations with GraphQLRequest or Provider.fetch")
        }
        if request.method == .get {
            guard payload.uploads.isEmpty else {
                throw GatewayError(.encoding, "files cannot be uploaded with GET",
                                   fix: "send operations with uploads by POST (the default)")
            }
            request.url = try QueryParameterEncoder.appending(query: Self.queryItems(payload), to: request.url)
            return
        }
        if payload.uploads.isEmpty {
            try request.setEncodedBody(.data(payload.bodyBytes), contentType: "application/json",
                                       replacingContentType: false, encoder: "GraphQL")
            return
        }
        try MultipartParameterEncoder(boundary: boundary).encode(Self.form(payload), into: &request, context: context)
    }

    /// `query=…&operationName=…&variables=…&extensions=…`, escaped by RFC 3986.
    static func queryItems(_ payload: GraphQLPayload) -> String {
        var pairs: [(String, String)] = []
        if let query = payload.query { pairs.append(("query", query)) }
        if let name = payload.operationName { pairs.append(("operationName", name)) }
        if !payload.variables.isEmpty { pairs.append(("variables", JSONValue.object(payload.variables).serialized())) }
        if !payload.extensions.isEmpty {
            pairs.append(("extensions", JSONValue.object(payload.extensions).serialized()))
        }
        return pairs.map { PercentEncoding.escape($0.0) + "=" + PercentEncoding.escape($0.1) }.joined(separator: "&")
    }

    /// The multipart form of an upload: `operations`, `map`, then the files.
    static func form(_ payload: GraphQLPayload) -> MultipartForm {
        var map = JSONObject()
        for (index, upload) in payload.uploads.enumerated() {
            map[String(index)] = .array([.string("variables." + upload.path)])
        }
        var form = MultipartForm()
        // Plain fields, as the spec's examples send them (some servers take a part with a
        // Content-Type for a file).
        form.append(.init(name: "operations", content: .data(payload.bodyBytes)))
        form.append(.init(name: "map", content: .data(Data(JSONValue.object(map).serialized().utf8))))
        for (index, upload) in payload.uploads.enumerated() {
            form.append(.init(name: String(index), filename: upload.file.filename,
                              contentType: upload.file.contentType, content: upload.file.content))
        }
        return form
    }
}

extension ParameterEncoder where Self == GraphQLParameterEncoder {
    /// GraphQL requests: a JSON body, URL query items for GET, or a multipart upload.
    public static var graphQL: GraphQLParameterEncoder { GraphQLParameterEncoder() }
}
