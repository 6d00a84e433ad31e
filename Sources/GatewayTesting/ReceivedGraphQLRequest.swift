import Foundation
import Gateway
import GraphQLLanguage

/// A GraphQL request read back the way a server reads it: from a JSON POST body, from the URL
/// query of a GET, or from the `operations` and `map` parts of a multipart upload.
///
/// Stubs use it to match operations by name and variables; loopback servers in tests use it to
/// answer like a GraphQL server.
///
/// ```swift
/// let server = try LoopbackServer { request in
///     guard let graphQL = ReceivedGraphQLRequest(request), graphQL.operationName == "GetTrack" else {
///         return .status(400)
///     }
///     return .json(#"{"data": {"track": null}}"#)
/// }
/// ```
public struct ReceivedGraphQLRequest: Sendable, CustomStringConvertible {
    /// One file part of a multipart upload.
    public struct File: Sendable, Hashable {
        /// The part's name (`0`, `1`, …).
        public var name: String
        /// The file name from `Content-Disposition`.
        public var filename: String?
        /// The part's `Content-Type`.
        public var contentType: String?
        /// The bytes, as received.
        public var content: Data
    }

    /// The operation text; `nil` for a hash-only persisted query.
    public var query: String?
    /// The operation name, when given.
    public var operationName: String?
    /// The variables; empty when none were sent.
    public var variables: JSONObject
    /// The extensions; empty when none were sent.
    public var extensions: JSONObject
    /// The `map` part of an upload: file part name → variable paths (`variables.image`).
    public var map: [String: [String]]
    /// The file parts of an upload, by part name.
    public var files: [String: File]
    /// How the request came: `POST`, `GET` or `multipart`.
    public var transport: String

    /// The persisted-query hash in `extensions.persistedQuery.sha256Hash`, if any.
    public var persistedQueryHash: String? { extensions["persistedQuery"]?["sha256Hash"]?.stringValue }

    /// The file that fills the variable path `path` (`image`, `files.0`), for an upload.
    public func file(forVariable path: String) -> File? {
        guard let part = map.first(where: { $0.value.contains("variables." + path) })?.key else { return nil }
        return files[part]
    }

    /// `GetTrack {"id":"1"}` and how it came.
    public var description: String {
        "\(operationName ?? "anonymous") \(JSONValue.object(variables).serialized()) (\(transport))"
    }

    /// Reads a request; `nil` when it is not a GraphQL request.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - url: the request URL (its query, for GET).
    ///   - contentType: the `Content-Type` header.
    ///   - body: the body bytes.
    public init?(method: String, url: URL, contentType: String?, body: Data) {
        map = [:]
        files = [:]
        if method.uppercased() == "GET" {
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func item(_ name: String) -> String? { items.last { $0.name == name }?.value }
            query = item("query")
            operationName = item("operationName")
            guard let variables = Self.object(item("variables")), let extensions = Self.object(item("extensions"))
            else { return nil }
            self.variables = variables
            self.extensions = extensions
            transport = "GET"
            guard query != nil || !extensions.isEmpty else { return nil }
            return
        }
        var payload = body
        if let contentType, contentType.lowercased().hasPrefix("multipart/form-data") {
            guard let parts = MultipartParts.parse(body, contentType: contentType),
                  let operations = parts.first(where: { $0.name == "operations" })?.content else { return nil }
            payload = operations
            if let mapPart = parts.first(where: { $0.name == "map" })?.content,
               case .object(let object)? = try? JSONValue(parsing: [UInt8](mapPart)) {
                for member in object {
                    map[member.key] = (member.value.arrayValue ?? []).compactMap(\.stringValue)
                }
            }
            for part in parts where part.name != "operations" && part.name != "map" {
                files[part.name] = File(name: part.name, filename: part.filename, contentType: part.contentType,
                                        content: part.content)
            }
            transport = "multipart"
        } else {
            transport = "POST"
        }
        guard case .object(let object)? = try? JSONValue(parsing: [UInt8](payload)) else { return nil }
        query = object["query"]?.stringValue
        operationName = object["operationName"]?.stringValue
        variables = object["variables"]?.objectValue ?? [:]
        extensions = object["extensions"]?.objectValue ?? [:]
        guard query != nil || !extensions.isEmpty else { return nil }
    }

    /// Reads a request as a stub transport records it.
    public init?(_ request: HTTPRequest, body: Data) {
        self.init(method: request.method.rawValue, url: request.url, contentType: request.headers["Content-Type"],
                  body: body)
    }

    /// Reads a request a loopback server received.
    public init?(_ request: LoopbackRequest) {
        guard let url = URL(string: "http://127.0.0.1" + request.target) else { return nil }
        self.init(method: request.method, url: url, contentType: request.headers["Content-Type"], body: request.body)
    }

    private static func object(_ text: String?) -> JSONObject? {
        guard let text, !text.isEmpty else { return [:] }
        return (try? JSONValue(parsing: text))?.objectValue
    }
}

/// A plain reader of `multipart/form-data` bodies, enough for tests.
enum MultipartParts {
    struct Part {
        var name: String
        var filename: String?
        var contentType: String?
        var content: Data
    }

    static func parse(_ body: Data, contentType: String) -> [Part]? {
        guard let boundary = MultipartBoundary.parameter(in: contentType) else { return nil }
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else { return nil }
        while cursor < body.endIndex {
            // After a delimiter: `--` ends the body, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { return parts }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { return nil }
            let headerStart = cursor + 2
            guard let headerEnd = body.range(of: separator, in: headerStart..<body.endIndex),
                  let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headerEnd.upperBound..<body.endIndex)
            else { return nil }
            let headerText = String(decoding: body[headerStart..<headerEnd.lowerBound], as: UTF8.self)
            var headers: [String: String] = [:]
            for line in headerText.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            let disposition = headers["content-disposition"] ?? ""
            guard let name = parameter("name", in: disposition) else { return nil }
            parts.append(Part(name: name, filename: parameter("filename", in: disposition),
                              contentType: headers["content-type"],
                              content: Data(body[headerEnd.upperBound..<next.lowerBound])))
            cursor = next.upperBound
        }
        return nil
    }

    private static func parameter(_ key: String, in disposition: String) -> String? {
        for piece in disposition.split(separator: ";").dropFirst() {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("\(key)=\"") else { continue }
            return String(trimmed.dropFirst(key.count + 2).dropLast())
        }
        return nil
    }
}
