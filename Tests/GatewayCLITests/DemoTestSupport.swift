import Foundation
import Gateway
import GatewayLoopback
import GraphQLLanguage
import Testing
@testable import GatewayDemoBackend

/// The example backend's pieces for tests: its schema, an endpoint over a fresh catalog, and a
/// way to send it GraphQL requests without a network.
enum DemoFixture {
    static let schemaURL = QueryFiles.root.appendingPathComponent("Schemas/music.graphql")

    /// The schema of `Schemas/music.graphql`, read once.
    static let loadedSchema = Result { () throws -> ExampleGraphQLSchema in
        try ExampleGraphQLSchema(sdl: String(contentsOf: schemaURL, encoding: .utf8), name: schemaURL.path)
    }

    static func schema() throws -> ExampleGraphQLSchema { try loadedSchema.get() }

    /// The operations of `Queries/`, checked against the schema.
    static func operations() throws -> OperationStore {
        try OperationStore(directory: QueryFiles.queries, schemaAt: schemaURL)
    }

    /// A GraphQL endpoint over its own copy of `catalog`, with `signedIn` holding a live access
    /// token `"live"` for the listener and an expired one `"old"`.
    struct Endpoint {
        let endpoint: ExampleGraphQLEndpoint
        let catalog: Locked<ExampleCatalog>
        let sessions: Locked<ExampleSessions>

        init(catalog: ExampleCatalog = .standard) throws {
            self.catalog = Locked(catalog)
            sessions = Locked(ExampleSessions())
            sessions.withLock { state in
                state.access["live"] = .init(subject: ExampleBackend.subject, expires: .now + .seconds(3600))
                state.access["old"] = .init(subject: ExampleBackend.subject, expires: .now - .seconds(1))
            }
            endpoint = ExampleGraphQLEndpoint(schema: try DemoFixture.schema(), catalog: self.catalog,
                                              sessions: sessions)
        }

        /// POSTs `query` as JSON with `token` as the bearer token (none when `nil`).
        func post(_ query: String, variables: JSONObject = [:], operationName: String? = nil,
                  token: String? = "live") throws -> (status: Int, body: JSONValue) {
            var payload: JSONObject = ["query": .string(query)]
            if let operationName { payload["operationName"] = .string(operationName) }
            if !variables.isEmpty { payload["variables"] = .object(variables) }
            var headers: LoopbackHeaders = ["Content-Type": "application/json"]
            if let token { headers["Authorization"] = "Bearer \(token)" }
            return try send(LoopbackRequest(method: "POST", target: "/graphql", headers: headers,
                                            body: Data(JSONValue.object(payload).serialized().utf8)))
        }

        /// Sends a request built by hand.
        func send(_ request: LoopbackRequest) throws -> (status: Int, body: JSONValue) {
            let response = endpoint.handle(request)
            return (response.status, try JSONValue(parsing: [UInt8](response.body)))
        }
    }

    /// The messages of a response's errors.
    static func messages(_ body: JSONValue) -> [String] {
        (body["errors"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
    }
}

/// Checks that `data` has exactly the shape an operation selects: every selected response key
/// and no other, objects where the schema has objects, lists where it has lists, `null` only
/// where the type is nullable, leaves of the right JSON kind.
struct DemoShapeCheck {
    let schema: ExampleGraphQLSchema
    let fragments: [String: FragmentDefinition]
    private(set) var problems: [String] = []

    init(schema: ExampleGraphQLSchema, document: Document) {
        self.schema = schema
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in document.definitions { fragments[fragment.name.value] = fragment }
        self.fragments = fragments
    }

    mutating func check(_ value: JSONValue, selections: [Selection], type: String, path: String) {
        guard let object = value.objectValue else {
            problems.append("\(path): expected an object, got \(value.kindDescription)")
            return
        }
        let typeName = object["__typename"]?.stringValue ?? type
        var expected: [String: (field: Field, type: TypeReference)] = [:]
        collect(selections, typeName: typeName, into: &expected)
        let keys = Set(object.keys)
        if keys != Set(expected.keys) {
            problems.append("\(path): keys \(keys.sorted()) instead of \(expected.keys.sorted())")
        }
        for (key, selected) in expected {
            guard let member = object[key] else { continue }
            check(member, type: selected.type, field: selected.field, path: "\(path).\(key)")
        }
    }

    private mutating func check(_ value: JSONValue, type: TypeReference, field: Field, path: String) {
        switch type {
        case .nonNull(let wrapper):
            if value.isNull { problems.append("\(path): null for a non-null field") } else {
                check(value, type: wrapper.type, field: field, path: path)
            }
        case .list(let list):
            guard !value.isNull else { return }
            guard let items = value.arrayValue else { return problems.append("\(path): expected a list") }
            for (index, item) in items.enumerated() {
                check(item, type: list.type, field: field, path: "\(path)[\(index)]")
            }
        case .named(let named):
            guard !value.isNull else { return }
            let name = named.name.value
            if schema.isLeaf(name) {
                let fits = switch name {
                case "Int", "Milliseconds": value.intValue != nil
                case "Boolean": value.boolValue != nil
                case "Float": value.doubleValue != nil
                default: value.stringValue != nil
                }
                if !fits { problems.append("\(path): \(value.kindDescription) does not fit \(name)") }
            } else {
                check(value, selections: field.selectionSet?.selections ?? [], type: name, path: path)
            }
        }
    }

    private func collect(_ selections: [Selection], typeName: String,
                         into expected: inout [String: (field: Field, type: TypeReference)]) {
        for selection in selections {
            switch selection {
            case .field(let field):
                let type: TypeReference = field.name.value == "__typename"
                    ? .nonNull(NonNullType(type: .named(NamedType(name: Name("String")))))
                    : schema.field(field.name.value, on: typeName)?.type ?? .named(NamedType(name: Name("?")))
                expected[field.responseKey] = (field, type)
            case .inlineFragment(let fragment):
                if let condition = fragment.typeCondition, !schema.applies(condition.name.value, to: typeName) {
                    continue
                }
                collect(fragment.selectionSet.selections, typeName: typeName, into: &expected)
            case .fragmentSpread(let spread):
                guard let fragment = fragments[spread.name.value],
                      schema.applies(fragment.typeCondition.name.value, to: typeName) else { continue }
                collect(fragment.selectionSet.selections, typeName: typeName, into: &expected)
            }
        }
    }
}
