import Foundation
import Gateway
import GraphQLLanguage

extension StubMatcher {
    /// Matches GraphQL requests for a generated operation type: the definition's operation
    /// name, and, where the request carries them, its text (printed or normalized) and its
    /// persisted-query hash; and variables that include `variables`, as
    /// `graphQL(_:variables:path:)` compares them.
    ///
    /// ```swift
    /// stub.on(.graphQL(GetTrackQuery.self, variables: ["id": "42"]),
    ///         reply: [.graphQL(data: ["track": ["__typename": "Track", "id": "42", "title": "One"]])])
    /// ```
    /// A request of another type with the same operation name but another text (a type
    /// generated from an older file) is not matched.
    ///
    /// - Parameters:
    ///   - type: the generated operation type.
    ///   - variables: the variables that must be sent with these values; any when `nil`.
    ///   - path: the endpoint path; any by default.
    public static func graphQL<Operation: GraphQLOperationType>(
        _ type: Operation.Type, variables: JSONObject? = nil, path: PathMatch = .any
    ) -> StubMatcher {
        let definition = Operation.definition
        let texts: Set = [definition.text, definition.normalizedText]
        let hashes: Set = [definition.textHash, definition.normalizedTextHash]
        let shownName = definition.name ?? "(anonymous)"
        let label = "GraphQL \(Operation.self) (\(definition.kind.rawValue) \(shownName))\(shown(variables))"
        return StubMatcher(path: path, label: label) { request, body in
            guard let received = ReceivedGraphQLRequest(request, body: body),
                  received.matches(operationName: definition.name, variables: variables) else { return false }
            if let query = received.query, !texts.contains(query) { return false }
            if let hash = received.persistedQueryHash, !hashes.contains(hash) { return false }
            return true
        }
    }
}

extension StubTransport {
    /// Adds a stub for the generated operation type `type` with (at least) `variables`,
    /// answering with `replies` in order.
    ///
    /// ```swift
    /// let stub = StubTransport()
    /// stub.onGraphQL(GetTrackQuery.self, variables: ["id": "42"],
    ///                reply: .graphQL(data: ["track": ["__typename": "Track", "id": "42", "title": "One"]]))
    /// ```
    /// - Parameters:
    ///   - type: the generated operation type.
    ///   - variables: the variables that must be sent with these values; any when `nil`.
    ///   - replies: the answers, in order.
    /// - Returns: the stub, for chaining.
    @discardableResult
    public func onGraphQL<Operation: GraphQLOperationType>(
        _ type: Operation.Type, variables: JSONObject? = nil, reply replies: StubReply...
    ) -> StubTransport {
        on(.graphQL(type, variables: variables), reply: replies)
    }
}
