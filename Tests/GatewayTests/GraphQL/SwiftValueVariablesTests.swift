import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Variables given as Swift values, written the way an app using the package writes them: plain
/// `let`s, a dictionary literal, no `JSONValue` in sight.
@Suite struct SwiftValueVariablesTests {
    private static let text = """
        query BooksBy($author: String!, $first: Int, $rating: Float, $inStock: Boolean, $tags: [String!],
                      $filter: BookFilter, $labels: Labels, $since: String, $note: String, $extra: Extra) {
          books(author: $author, first: $first) { title }
        }
        """

    private func booksBy() throws -> GraphQLOperation {
        try OperationStore(sources: [Source(Self.text, name: "BooksBy.graphql")])["BooksBy"]
    }

    private func stubbedProvider(_ configure: (inout Provider.Configuration) -> Void = { _ in })
        -> (Provider, StubTransport)
    {
        let stub = StubTransport()
        stub.onGraphQL("BooksBy", reply: .graphQL(data: ["books": []]))
        return (makeProvider(stub, configure: configure), stub)
    }

    private func sentBody(_ stub: StubTransport) throws -> String {
        String(decoding: try #require(stub.requests.last).body, as: UTF8.self)
    }

    @Test func plainStringAndIntVariablesAreSentAsJSON() async throws {
        let (provider, stub) = stubbedProvider()
        let operation = try booksBy()

        let author = "Ada"
        let first = 2
        _ = try await provider.fetch(operation, variables: ["author": author, "first": first], as: JSONValue.self)

        let body = try sentBody(stub)
        #expect(body.contains(#""variables":{"author":"Ada","first":2}"#), "\(body)")
    }

    struct BookFilter: Encodable, Sendable {
        var genre: String
        var year: Int
    }

    @Test func everyKindOfSwiftValueBecomesItsJSON() async throws {
        let (provider, stub) = stubbedProvider { $0.jsonEncoding = JSONEncodingOptions(dates: .iso8601) }
        let author = "Ada"
        let first = 2
        let rating = 4.5
        let inStock = true
        let tags = ["poetry", "maths"]
        let filter = BookFilter(genre: "notes", year: 1843)
        let labels = ["shelf": "B", "room": "2"]
        let since = Date(timeIntervalSince1970: 0)
        let note: String? = nil
        let extra: JSONValue = ["kept": [1, "two"]]

        _ = try await provider.fetch(
            try booksBy(),
            variables: ["author": author, "first": first, "rating": rating, "inStock": inStock, "tags": tags,
                        "filter": filter, "labels": labels, "since": since, "note": note, "extra": extra],
            as: JSONValue.self)

        let expected = #""variables":{"author":"Ada","first":2,"rating":4.5,"inStock":true,"tags":["poetry","maths"],"#
            + #""filter":{"genre":"notes","year":1843},"labels":{"room":"2","shelf":"B"},"#
            + #""since":"1970-01-01T00:00:00Z","note":null,"extra":{"kept":[1,"two"]}}"#
        let body = try sentBody(stub)
        #expect(body.contains(expected), "\(body)")
    }

    @Test func literalsAndJSONValuesWorkAsBefore() async throws {
        let (provider, stub) = stubbedProvider()
        let operation = try booksBy()
        let author = "Ada"

        _ = try await provider.fetch(operation, variables: ["author": "Ada", "first": 3], as: JSONValue.self)
        #expect(try sentBody(stub).contains(#""variables":{"author":"Ada","first":3}"#))
        _ = try await provider.fetch(operation, variables: ["author": .string(author), "tags": nil], as: JSONValue.self)
        #expect(try sentBody(stub).contains(#""variables":{"author":"Ada","tags":null}"#))
        let variables: GraphQLVariables = ["author": "Ada", "first": 4]
        _ = try await provider.fetch(operation, variables: variables, as: JSONValue.self)
        #expect(try sentBody(stub).contains(#""variables":{"author":"Ada","first":4}"#))
    }

    @Test func requestsAndVariablesTakeSwiftValuesToo() throws {
        let author = "Ada"
        let first = 2
        let request = try GraphQLRequest<JSONValue>(operation: try booksBy(),
                                                    variables: ["first": first, "author": author])
        #expect(JSONValue.object(request.variables).serialized() == #"{"author":"Ada","first":2}"#)
        let variables = try GraphQLVariables(values: ["first": first, "author": author])
        #expect(variables.description == #"{"author":"Ada","first":2}"#)
    }

    @Test func aNumberJSONCannotCarryIsRefusedByName() async throws {
        let (provider, stub) = stubbedProvider()
        let author = "Ada"
        let rating = Double.nan
        let error = try await #require(throws: GatewayError.self) {
            try await provider.fetch(try booksBy(), variables: ["author": author, "rating": rating],
                                     as: JSONValue.self)
        }
        #expect(error.kind == .invalidVariables)
        #expect(error.message.contains("$rating"), "\(error)")
        #expect(stub.requests.isEmpty)
    }
}
