import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage

/// A loopback server that answers like a GraphQL server of the example API: it reads the request
/// (POST, GET or multipart), validates the `query` it received against the schema (an unused
/// fragment is an error there, as in graphql-js), and answers with data made from the schema
/// for the selection it was sent.
///
/// The header `X-Answer` picks other answers: `partial` (data with errors, the first root field
/// null), `errors` (errors and no data), `unauthenticated`, `html` (a captive portal's page),
/// `bad-request` (400 with a GraphQL error body), `text` (a body that is not JSON).
///
/// With `persistedQueries`, it keeps the text of each hash it is sent with its text, answers
/// `PersistedQueryNotFound` for a hash it does not have, and forgets everything on
/// `forgetPersistedQueries()`.
final class FakeGraphQLServer: Sendable {
    let server: LoopbackServer
    let schema: Schema
    /// Every GraphQL request received, in order.
    let received: Locked<[ReceivedGraphQLRequest]>
    /// The data sent for each request, in order.
    let answered: Locked<[JSONValue]>
    private let hashes: Locked<[String: String]>

    /// The GraphQL endpoint.
    var endpoint: URL { server.baseURL.appendingPathComponent("graphql") }

    init(schema: Schema, persistedQueries: Bool = false) throws {
        let received = Locked<[ReceivedGraphQLRequest]>([]), answered = Locked<[JSONValue]>([])
        let hashes = Locked<[String: String]>([:])
        (self.schema, self.received, self.answered, self.hashes) = (schema, received, answered, hashes)
        server = try LoopbackServer { request in
            guard let graphQL = ReceivedGraphQLRequest(request) else {
                return Self.errors(["not a GraphQL request"], status: 400)
            }
            received.withLock { $0.append(graphQL) }
            var text = graphQL.query
            if let hash = graphQL.persistedQueryHash, persistedQueries {
                if let query = text {
                    guard SHA256.hexDigest(query) == hash else {
                        return Self.errors(["provided sha does not match query"], status: 400)
                    }
                    hashes.withLock { $0[hash] = query }
                } else if let known = hashes.withLock({ $0[hash] }) {
                    text = known
                } else {
                    return .json(#"{"errors":[{"message":"PersistedQueryNotFound","#
                        + #""extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#)
                }
            }
            guard let text else { return Self.errors(["the request has no query"], status: 400) }
            let answer = Self.answer(text, graphQL, schema: schema, mode: request.headers["X-Answer"] ?? "data")
            if let data = answer.data { answered.withLock { $0.append(data) } }
            return answer.response
        }
    }

    /// Forgets every persisted query.
    func forgetPersistedQueries() { hashes.withLock { $0 = [:] } }

    func shutdown() { server.shutdown() }

    static func errors(_ messages: [String], status: Int = 200, code: String? = nil) -> LoopbackResponse {
        let errors = messages.map { message -> JSONValue in
            var error: JSONObject = ["message": .string(message)]
            if let code { error["extensions"] = ["code": .string(code)] }
            return .object(error)
        }
        return .json(JSONValue.object(["errors": .array(errors)]).serialized(), status: status)
    }

    private static func answer(_ text: String, _ request: ReceivedGraphQLRequest, schema: Schema, mode: String)
        -> (response: LoopbackResponse, data: JSONValue?)
    {
        let document: Document
        do {
            document = try Parser.parse(Source(text, name: "request"))
        } catch {
            return (errors(["Syntax Error: \(error.message)"], status: 400), nil)
        }
        let problems = Validator(schema: schema).validate(document)
        guard problems.isEmpty else { return (errors(problems.map(\.message), status: 400), nil) }
        guard let selection = try? OperationSelection(document: document, operationName: request.operationName),
              let root = schema.rootType(for: selection.operation.operation)
        else { return (errors(["Unknown operation named \"\(request.operationName ?? "")\"."], status: 400), nil) }
        var fragments: [String: FragmentDefinition] = [:]
        for fragment in selection.fragments { fragments[fragment.name.value] = fragment }
        let mock = MockData(schema: schema, fragments: fragments)
        var data = mock.object(selection.operation.selectionSet, type: root, index: 0, depth: 0)
        switch mode {
        case "partial":
            guard let first = data.keys.first else { break }
            data[first] = .null
            let error: JSONValue = ["message": .string("Could not load \(first)"), "path": [.string(first)],
                                    "locations": [["line": 2, "column": 3]], "extensions": ["code": "INTERNAL"]]
            let body: JSONValue = ["data": .object(data), "errors": [error]]
            return (.json(body.serialized()), .object(data))
        case "errors":
            return (errors(["The catalog is down", "Try again later"]), nil)
        case "unauthenticated":
            return (errors(["Sign in first"], code: "UNAUTHENTICATED"), nil)
        case "html":
            return (LoopbackResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                     body: Data("<html><body>Sign in to Cafe Wi-Fi</body></html>".utf8)), nil)
        case "bad-request":
            return (errors(["Variable \"$id\" got invalid value; ID cannot represent this value"], status: 400,
                           code: "BAD_USER_INPUT"), nil)
        case "text":
            return (LoopbackResponse(status: 200, headers: ["Content-Type": "text/plain"],
                                     body: Data("upstream connect error".utf8)), nil)
        default:
            break
        }
        return (.json(JSONValue.object(["data": .object(data)]).serialized()), .object(data))
    }
}

/// Data for a selection, made from the schema: the same selection always gets the same data.
struct MockData {
    let schema: Schema
    let fragments: [String: FragmentDefinition]

    func object(_ set: SelectionSet, type: Schema.NamedType, index: Int, depth: Int) -> JSONObject {
        var result = JSONObject()
        guard depth < 32 else { return result }
        for selection in set.selections {
            switch selection {
            case .field(let field):
                let key = field.responseKey
                if field.name.value == "__typename" {
                    result[key] = .string(type.name)
                } else if let definition = type.field(named: field.name.value) {
                    merge(&result, key, value(definition.type, field.selectionSet, field: field.name.value,
                                              index: index, depth: depth + 1))
                }
            case .inlineFragment(let inline):
                guard inline.typeCondition.map({ $0.name.value == type.name }) ?? true else { continue }
                for member in object(inline.selectionSet, type: type, index: index, depth: depth + 1) {
                    merge(&result, member.key, member.value)
                }
            case .fragmentSpread(let spread):
                guard let fragment = fragments[spread.name.value],
                      fragment.typeCondition.name.value == type.name else { continue }
                for member in object(fragment.selectionSet, type: type, index: index, depth: depth + 1) {
                    merge(&result, member.key, member.value)
                }
            }
        }
        return result
    }

    private func value(_ type: Schema.TypeRef, _ set: SelectionSet?, field: String, index: Int, depth: Int)
        -> JSONValue
    {
        if let item = type.listItem {
            return .array((0..<2).map { value(item, set, field: field, index: $0, depth: depth) })
        }
        let named = schema.namedType(of: type)
        switch named.kind {
        case .scalar:
            switch named.name {
            case "ID": return .string("\(field)-\(index + 1)")
            case "String": return .string("\(field) \(index + 1)")
            case "Int": return .number(JSONNumber(7 + index))
            case "Float": return 1.5
            case "Boolean": return .bool(index % 2 == 0)
            case "DateTime": return .string("2024-05-0\(index + 1)T12:00:00Z")
            case "Milliseconds": return .number(JSONNumber(180_000 + index))
            default: return .string("\(named.name.lowercased())-\(index + 1)")
            }
        case .enum:
            return .string(named.enumValues.isEmpty ? "" : named.enumValues[index % named.enumValues.count].name)
        case .object:
            return .object(object(set ?? SelectionSet(selections: []), type: named, index: index, depth: depth))
        case .interface, .union:
            // A concrete type the selection asks about, a different one for each list position.
            let conditions = typeConditions(set)
            guard !conditions.isEmpty, let concrete = schema.type(named: conditions[index % conditions.count]) else {
                return .null
            }
            return .object(object(set ?? SelectionSet(selections: []), type: concrete, index: index, depth: depth))
        case .inputObject:
            return .null
        }
    }

    private func typeConditions(_ set: SelectionSet?) -> [String] {
        var names: [String] = []
        for selection in set?.selections ?? [] {
            let name: String?
            switch selection {
            case .inlineFragment(let inline): name = inline.typeCondition?.name.value
            case .fragmentSpread(let spread): name = fragments[spread.name.value]?.typeCondition.name.value
            case .field: name = nil
            }
            if let name, schema.type(named: name)?.kind == .object, !names.contains(name) { names.append(name) }
        }
        return names
    }

    private func merge(_ object: inout JSONObject, _ key: String, _ value: JSONValue) {
        guard let existing = object[key] else {
            object[key] = value
            return
        }
        switch (existing, value) {
        case (.object(var old), .object(let new)):
            for member in new { merge(&old, member.key, member.value) }
            object[key] = .object(old)
        case (.array(let old), .array(let new)) where old.count == new.count:
            object[key] = .array(zip(old, new).map { pair in
                var holder: JSONObject = ["v": pair.0]
                merge(&holder, "v", pair.1)
                return holder["v"] ?? pair.1
            })
        default:
            object[key] = value
        }
    }
}
