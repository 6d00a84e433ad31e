import Foundation
import Gateway
import GraphQLLanguage

extension StubMatcher {
    /// Matches GraphQL requests (POST, GET or upload) for the operation `operationName` whose
    /// variables include `variables`: each given variable must be sent with an equal value
    /// (`1` and `"1"` differ); others may be sent too, such as declared defaults.
    ///
    /// ```swift
    /// stub.on(.graphQL("GetTrack", variables: ["id": "1"]), reply: [.graphQL(data: ["track": ["title": "One"]])])
    /// stub.on(.graphQL("GetTrack", variables: ["id": "2"]), reply: [.graphQL(data: ["track": nil])])
    /// ```
    /// - Parameters:
    ///   - operationName: the operation's name; any operation when `nil`.
    ///   - variables: the variables that must be sent with these values; any when `nil`.
    ///   - path: the endpoint path; any by default.
    public static func graphQL(_ operationName: String?, variables: JSONObject? = nil, path: PathMatch = .any)
        -> StubMatcher
    {
        let label = "GraphQL \(operationName ?? "any operation")\(shown(variables))"
        return StubMatcher(path: path, label: label) { request, body in
            guard let received = ReceivedGraphQLRequest(request, body: body) else { return false }
            return received.matches(operationName: operationName, variables: variables)
        }
    }

    /// `(id: "1", first: 2)`, or nothing for `nil`.
    static func shown(_ variables: JSONObject?) -> String {
        variables.map { object in
            "(" + object.keys.map { "\($0): \(object[$0].map { $0.serialized() } ?? "null")" }
                .joined(separator: ", ") + ")"
        } ?? ""
    }
}

extension StubTransport {
    /// Adds a stub for the GraphQL operation `operationName` with (at least) `variables`,
    /// answering with `replies` in order.
    @discardableResult
    public func onGraphQL(_ operationName: String?, variables: JSONObject? = nil,
                          reply replies: StubReply...) -> StubTransport {
        on(.graphQL(operationName, variables: variables), reply: replies)
    }

    /// The GraphQL requests received, read back, in order (requests that are not GraphQL are left out).
    public var graphQLRequests: [ReceivedGraphQLRequest] {
        requests.compactMap { $0.graphQL }
    }
}

extension StubReply {
    /// Answers with a GraphQL response envelope.
    ///
    /// - Parameters:
    ///   - data: the `data` member; left out when `nil` (an errors-only answer).
    ///   - errors: the `errors` member; left out when empty.
    ///   - extensions: the `extensions` member; left out when `nil`.
    ///   - status: the HTTP status (200 by default, as GraphQL servers answer).
    public static func graphQL(data: JSONValue? = nil, errors: [GraphQLError] = [], extensions: JSONObject? = nil,
                               status: Int = 200) -> StubReply {
        var object = JSONObject()
        if let data { object["data"] = data }
        if !errors.isEmpty { object["errors"] = .array(errors.map(\.json)) }
        if let extensions { object["extensions"] = .object(extensions) }
        return .json(JSONValue.object(object).serialized(), status: status)
    }
}

extension ReceivedGraphQLRequest {
    /// Whether the request is for `operationName` (any when `nil`) and sends each of
    /// `variables` (any when `nil`) with an equal value.
    func matches(operationName: String?, variables: JSONObject?) -> Bool {
        if let operationName, self.operationName != operationName { return false }
        guard let variables else { return true }
        return variables.keys.allSatisfy { self.variables[$0] == variables[$0] }
    }
}

extension RecordedRequest {
    /// The request read back as a GraphQL request, or `nil` when it is not one.
    public var graphQL: ReceivedGraphQLRequest? { ReceivedGraphQLRequest(request, body: body) }
}
