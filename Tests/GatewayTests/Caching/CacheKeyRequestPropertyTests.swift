import Foundation
import Gateway
import GraphQLLanguage
import Testing

/// Key properties seen from requests: what the operation text and variables of a real
/// `GraphQLRequest` do and do not change.
@Suite struct CacheKeyRequestPropertyTests {
    private static let baseURL = URL(string: "https://api.example.com/v1/")

    private func key(_ text: String, operationName: String? = nil, variables: GraphQLVariables = [:],
                     partition: CachePartition = .anonymous) throws -> CacheKey {
        let operation = try GraphQLOperation(text, operationName: operationName)
        return try GraphQLRequest<JSONValue>(operation: operation, variables: variables)
            .cacheKey(baseURL: try #require(Self.baseURL), partition: partition)
    }

    @Test func layoutCommentsAndArgumentOrderNeverChangeTheKey() throws {
        let texts = [
            "query Search($text: String!, $limit: Int) { search(text: $text, limit: $limit) { id } }",
            """
            # find things
            query Search(
              $limit: Int   # how many
              $text: String!
            ) {
              search(limit: $limit, text: $text) {
                id
              }
            }
            """,
            "query Search($text:String!,$limit:Int){search(limit:$limit,text:$text){id}}",
        ]
        let keys = try texts.map { try key($0, variables: ["text": "night", "limit": 5]) }
        #expect(Set(keys.map(\.hex)).count == 1)
    }

    @Test func variableKeyOrderNeverChangesTheKey() throws {
        let text = "query Search($text: String!, $limit: Int) { search(text: $text, limit: $limit) { id } }"
        #expect(try key(text, variables: ["text": "a", "limit": 1]) == key(text, variables: ["limit": 1, "text": "a"]))
    }

    @Test func aDeclaredDefaultFillsAnAbsentVariable() throws {
        let text = "query Search($text: String!, $limit: Int = 10) { search(text: $text, limit: $limit) { id } }"
        #expect(try key(text, variables: ["text": "a"]) == key(text, variables: ["text": "a", "limit": 10]))
        #expect(try key(text, variables: ["text": "a"]) != key(text, variables: ["text": "a", "limit": nil]))
    }

    @Test func twoOperationsOfOneDocumentHaveDifferentKeys() throws {
        let document = "query A { track(id: 1) { id } } query B { track(id: 1) { id } }"
        #expect(try key(document, operationName: "A") != key(document, operationName: "B"))
    }

    @Test func twoPartitionsHaveDifferentKeys() throws {
        let text = "query Me { me { id } }"
        let keys = try [CachePartition.anonymous, .subject("alice"), .subject("bob")].map { try key(text, partition: $0) }
        #expect(Set(keys.map(\.hex)).count == 3)
    }

    @Test func persistedQueriesAndGETDoNotChangeTheKey() throws {
        let operation = try GraphQLOperation("query Me { me { id } }")
        let baseURL = try #require(Self.baseURL)
        var plain = try GraphQLRequest<JSONValue>(operation: operation)
        let first = try plain.cacheKey(baseURL: baseURL, partition: .anonymous)
        plain.options.usesGET = true
        plain.options.persistedQueries = .enabled
        #expect(try plain.cacheKey(baseURL: baseURL, partition: .anonymous) == first)
    }
}
