import Foundation
import GraphQLLanguage

/// What a GraphQL request sends: `{query, operationName, variables, extensions}`, and the files
/// of an upload. The parameters that `GraphQLParameterEncoder` writes in the encode stage, as a
/// JSON body, as URL query items (GET), or as a multipart upload.
///
/// The payload also knows its cache key: the operation's normalized text and the canonical
/// variables, whatever text is sent (printed, normalized, or only a persisted-query hash).
public struct GraphQLPayload: Sendable, Encodable {
    /// One file of an upload, and the variable path it fills (`image`, `files.0`).
    public struct Upload: Sendable {
        /// The path inside `variables`, dot-separated.
        public var path: String
        /// The file.
        public var file: GraphQLUpload

        /// Creates an upload slot.
        public init(path: String, file: GraphQLUpload) {
            self.path = path
            self.file = file
        }
    }

    /// The operation text; `nil` when only a persisted-query hash is sent.
    public var query: String?
    /// The operation's name, when it has one.
    public var operationName: String?
    /// The variables, checked and with defaults applied (upload placeholders are `null`).
    public var variables: JSONObject
    /// The request extensions (`persistedQuery`, and any of the caller's).
    public var extensions: JSONObject
    /// Files sent by the multipart request spec, in the order of their parts.
    public var uploads: [Upload]
    /// The per-operation part of the cache key.
    public let cacheKeyOperation: CacheKey.Operation

    /// Creates a payload.
    public init(query: String?, operationName: String?, variables: JSONObject = [:], extensions: JSONObject = [:],
                uploads: [Upload] = [], cacheKeyOperation: CacheKey.Operation) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
        self.uploads = uploads
        self.cacheKeyOperation = cacheKeyOperation
    }

    /// The request object: `query` (unless hash-only), `operationName` (when named), `variables`
    /// (when any) and `extensions` (when any), in that order.
    public var json: JSONValue {
        var object = JSONObject()
        if let query { object["query"] = .string(query) }
        if let operationName { object["operationName"] = .string(operationName) }
        if !variables.isEmpty { object["variables"] = .object(variables) }
        if !extensions.isEmpty { object["extensions"] = .object(extensions) }
        return .object(object)
    }

    /// The request object as compact JSON bytes: the POST body.
    public var bodyBytes: Data { Data(json.serialized(.compact).utf8) }

    /// The cache key of this request: the same whether the text, the normalized text or only a
    /// hash is sent, and whether by POST or GET.
    ///
    /// - Parameters:
    ///   - endpoint: the GraphQL endpoint URL.
    ///   - partition: whose data it is.
    public func cacheKey(endpoint: URL, partition: CachePartition) -> CacheKey {
        cacheKeyOperation.key(variables: variables.isEmpty ? nil : .object(variables),
                              endpoint: endpoint.absoluteString, partition: partition)
    }

    /// Writes the request object.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
