import Foundation
import GraphQLLanguage
import Testing
@testable import Gateway

@Suite struct CacheKeyTests {
    static let text = "query GetTrack($id:ID!){track(id:$id){id title}}"
    static let endpoint = "https://api.example.com/graphql"

    static func key(_ variables: JSONValue?, text: String = text, name: String? = "GetTrack",
                    endpoint: String = endpoint, partition: CachePartition = .anonymous) -> CacheKey {
        CacheKey.graphQL(operation: text, operationName: name, variables: variables, endpoint: endpoint,
                         partition: partition)
    }

    @Test func valuesOfDifferentTypesOrOrderNeverCollide() {
        let variables: [JSONValue?] = [
            ["id": 1], ["id": "1"], ["id": 1.0], ["id": true], ["id": "true"], ["id": nil], [:],
            ["id": [1, 2]], ["id": [2, 1]], ["id": [1, 2] as JSONValue, "x": nil], ["id": 1.5], ["id": 2.5],
        ]
        let keys = variables.map { Self.key($0).hex }
        #expect(Set(keys).count == variables.count, "\(keys)")
    }

    @Test func nullIsDistinctFromAbsent() {
        #expect(Self.key(["id": 1, "after": nil]) != Self.key(["id": 1]))
    }

    @Test func noVariablesIsTheSameAsAnEmptyObject() {
        #expect(Self.key(nil) == Self.key([:]))
    }

    @Test func memberOrderOfTheVariablesDoesNotChangeTheKey() throws {
        let first = try JSONValue(parsing: #"{"id":"7","filter":{"b":2,"a":[1,{"z":0,"y":1}]}}"#)
        let second = try JSONValue(parsing: #"{"filter":{"a":[1,{"y":1,"z":0}],"b":2},"id":"7"}"#)
        #expect(Self.key(first) == Self.key(second))
    }

    @Test func operationsEndpointsAndPartitionsAllChangeTheKey() {
        let keys = [
            Self.key(["id": 1]),
            Self.key(["id": 1], name: "GetAlbum"),
            Self.key(["id": 1], name: nil),
            Self.key(["id": 1], name: ""),
            Self.key(["id": 1], text: "query GetTrack($id:ID!){track(id:$id){id}}"),
            Self.key(["id": 1], endpoint: "https://other.example.com/graphql"),
            Self.key(["id": 1], partition: .subject("alice")),
            Self.key(["id": 1], partition: .subject("bob")),
            Self.key(["id": 1], partition: .subject("")),
            Self.key(["id": 1], partition: .subject("anonymous")),
        ]
        #expect(Set(keys.map(\.hex)).count == keys.count)
    }

    @Test(arguments: [",", ":", ".", "(", ")", "[", "]", "\"", "\u{0}", "{", "}", "\\"])
    func separatorsInsideValuesNeverMoveAComponentBoundary(separator: String) {
        let keys = [
            Self.key(nil, text: "q\(separator)r", name: "n"),
            Self.key(nil, text: "q", name: "r\(separator)n"),
            Self.key(nil, text: "q\(separator)", name: "rn"),
            Self.key(nil, endpoint: "e\(separator)f", partition: .subject("p")),
            Self.key(nil, endpoint: "e", partition: .subject("f\(separator)p")),
            Self.key(nil, endpoint: "e\(separator)f\(separator)p", partition: .anonymous),
            CacheKey.Operation(text: "q", name: "n").key(canonicalVariables: "{\(separator)}", endpoint: "e",
                                                         partition: .anonymous),
            CacheKey.Operation(text: "q", name: "n").key(canonicalVariables: "{", endpoint: "\(separator)}e",
                                                         partition: .anonymous),
        ]
        #expect(Set(keys.map(\.hex)).count == keys.count)
    }

    @Test func aPrecomputedOperationGivesTheKeyComputedFromScratch() {
        let operation = CacheKey.Operation(text: Self.text, name: "GetTrack")
        for variables: JSONValue in [["id": 1], [:], ["id": "x\u{0}y", "n": [1, nil, 2.5]]] {
            let fast = operation.key(variables: variables, endpoint: Self.endpoint, partition: .subject("u"))
            let slow = Self.key(variables, partition: .subject("u"))
            #expect(fast.hex == slow.hex)
            #expect(CacheKey(components: fast.components).hex == fast.hex)
        }
    }

    @Test func theLayoutIsPinnedSoThatStoredKeysStayValid() {
        // SHA-256 over each component as an 8-byte big-endian length and its UTF-8 bytes:
        // "gateway.cache-key/1", "graphql", text, "GetTrack", {"id":1}, endpoint, "u" (checked
        // against Python's hashlib). Changing the layout must change `CacheKeyHasher.layoutTag`.
        #expect(Self.key(["id": 1], partition: .subject("u")).hex
                == "30a811d5dffcce7333b633f74ded06591fb01ad383ca02bee63e7744b2ad510c")
    }

    @Test func explainListsEveryComponentInHashingOrder() {
        let key = Self.key(["id": 1], partition: .subject("u"))
        #expect(key.explain() == [
            CacheKeyComponent(name: "kind", value: "graphql"),
            CacheKeyComponent(name: "operation", value: Self.text),
            CacheKeyComponent(name: "operationName", value: "GetTrack"),
            CacheKeyComponent(name: "variables", value: #"{"id":1}"#),
            CacheKeyComponent(name: "endpoint", value: Self.endpoint),
            CacheKeyComponent(name: "partition", value: "u"),
        ])
        #expect(Self.key(nil, name: nil).explain().last == CacheKeyComponent(name: "partition", value: nil))
    }

    @Test func differencesNameTheComponentsThatDiffer() {
        let first = Self.key(["id": 1])
        #expect(first.components.differences(from: Self.key(["id": 2]).components) == ["variables"])
        #expect(first.components.differences(from: Self.key(["id": 1], partition: .subject("a")).components)
                == ["partition"])
        #expect(first.components.differences(from: first.components).isEmpty)
        let rest = CacheKey.rest(url: URL(string: "https://api.example.com/a")!, partition: .anonymous)
        #expect(first.components.differences(from: rest.components).contains("kind"))
    }

    @Test func digestsReadBackFromHex() throws {
        let key = Self.key(["id": 1])
        let parsed = try #require(CacheKey.Digest(hex: key.hex.uppercased()))
        #expect(parsed == key.digest)
        #expect(key.hex.count == 64)
        #expect(CacheKey.Digest(hex: String(key.hex.dropLast())) == nil)
        #expect(CacheKey.Digest(hex: String(key.hex.dropLast()) + "g") == nil)
    }
}
