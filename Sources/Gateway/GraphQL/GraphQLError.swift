import GraphQLLanguage

/// One entry of a GraphQL response's `errors`: a message, where in the document it arose, which
/// response field it concerns, and the server's extensions (such as `code`).
///
/// GraphQL errors are data: a response with `data` and `errors` is a `GraphQLResponse` carrying
/// both; only errors without data are thrown (as a `GatewayError` whose `graphQLErrors` holds
/// them).
public struct GraphQLError: Sendable, Hashable, CustomStringConvertible {
    /// A place in the operation text the server received.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// The column, from 1.
        public var column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line:column`.
        public var description: String { "\(line):\(column)" }
    }

    /// One step of a response path: a field's response key or a list index.
    public enum PathElement: Sendable, Hashable, CustomStringConvertible {
        /// A field's response key.
        case key(String)
        /// A position in a list, from 0.
        case index(Int)

        /// The key, or the index.
        public var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// What went wrong, in the server's words.
    public var message: String
    /// Where in the operation text, when the server says.
    public var locations: [Location]
    /// The response field the error concerns, such as `track.release.title`; empty when the
    /// error concerns the whole request.
    public var path: [PathElement]
    /// The server's extra information (`code`, `classification`, …), when it sends any.
    public var extensions: JSONObject?

    /// Creates an error.
    public init(message: String, locations: [Location] = [], path: [PathElement] = [], extensions: JSONObject? = nil) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }

    /// `extensions.code`, when it is a string.
    public var code: String? { extensions?["code"]?.stringValue }

    /// The path as text: `track.artists.0.name`.
    public var pathText: String { path.map(\.description).joined(separator: ".") }

    /// `message (at track.title; line 3:5; code NOT_FOUND)`.
    public var description: String {
        var details: [String] = []
        if !path.isEmpty { details.append("at \(pathText)") }
        if !locations.isEmpty { details.append("line " + locations.map(\.description).joined(separator: ", ")) }
        if let code { details.append("code \(code)") }
        return details.isEmpty ? message : "\(message) (\(details.joined(separator: "; ")))"
    }

    /// Reads an error from JSON the way servers write it; fields of the wrong shape are ignored,
    /// and an entry that is not an object becomes an error whose message is its JSON text.
    public init(json: JSONValue) {
        guard case .object(let object) = json else {
            self.init(message: String(json.serialized().prefix(500)))
            return
        }
        let locations: [Location] = (object["locations"]?.arrayValue ?? []).compactMap { item in
            guard let line = item["line"]?.intValue, let column = item["column"]?.intValue else { return nil }
            return Location(line: line, column: column)
        }
        let path: [PathElement] = (object["path"]?.arrayValue ?? []).compactMap { item in
            if let key = item.stringValue { return .key(key) }
            if let index = item.intValue { return .index(index) }
            return nil
        }
        self.init(message: object["message"]?.stringValue ?? "(the server gave no message)", locations: locations,
                  path: path, extensions: object["extensions"]?.objectValue)
    }
}

extension GraphQLError {
    /// The error as a server writes it.
    public var json: JSONValue {
        var object = JSONObject()
        object["message"] = .string(message)
        if !locations.isEmpty {
            object["locations"] = .array(locations.map { .object(["line": .number(JSONNumber($0.line)),
                                                                    "column": .number(JSONNumber($0.column))]) })
        }
        if !path.isEmpty {
            object["path"] = .array(path.map { element in
                switch element {
                case .key(let key): .string(key)
                case .index(let index): .number(JSONNumber(index))
                }
            })
        }
        if let extensions { object["extensions"] = .object(extensions) }
        return .object(object)
    }
}

/// Says which GraphQL errors mean something particular, such as "not authenticated".
///
/// ```swift
/// config.graphQL.unauthenticated = .code("UNAUTHENTICATED").or(.code("FORBIDDEN_TOKEN"))
/// ```
public struct GraphQLErrorPredicate: Sendable, CustomStringConvertible {
    private let test: @Sendable (GraphQLError) -> Bool
    /// What the predicate recognises, for messages.
    public let description: String

    /// Creates a predicate from a test on one error.
    public init(_ description: String, _ test: @escaping @Sendable (GraphQLError) -> Bool) {
        self.description = description
        self.test = test
    }

    /// Whether `error` is one the predicate recognises.
    public func matches(_ error: GraphQLError) -> Bool { test(error) }

    /// Whether any of `errors` is.
    public func matchesAny(_ errors: [GraphQLError]) -> Bool { errors.contains { test($0) } }

    /// A predicate that holds when this one or `other` does.
    public func or(_ other: GraphQLErrorPredicate) -> GraphQLErrorPredicate {
        let first = test, second = other.test
        return GraphQLErrorPredicate("\(description) or \(other.description)") { first($0) || second($0) }
    }

    /// Errors whose `extensions.code` is `code`.
    public static func code(_ code: String) -> GraphQLErrorPredicate {
        GraphQLErrorPredicate("extensions.code == \"\(code)\"") { $0.code == code }
    }

    /// `extensions.code == "UNAUTHENTICATED"`: the convention of Apollo Server and most others.
    public static var unauthenticated: GraphQLErrorPredicate { code("UNAUTHENTICATED") }

    /// Recognises nothing.
    public static var never: GraphQLErrorPredicate { GraphQLErrorPredicate("nothing") { _ in false } }
}
