import Foundation
import Testing
@testable import Gateway

@Suite struct RESTCacheKeyTests {
    static func key(_ url: String, method: HTTPMethod = .get, partition: CachePartition = .anonymous,
                    vary: [String] = [], headers: HTTPHeaders = [:]) -> CacheKey {
        CacheKey.rest(method: method, url: URL(string: url)!, partition: partition, vary: vary,
                      requestHeaders: headers)
    }

    @Test func queryItemOrderDoesNotChangeTheKey() {
        #expect(Self.key("https://api.example.com/items?b=2&a=1") == Self.key("https://api.example.com/items?a=1&b=2"))
        #expect(Self.key("https://api.example.com/items?a=1&b=2").components.endpoint
                == "https://api.example.com/items?a=1&b=2")
    }

    @Test func valuesOfOneNameKeepTheirOrder() {
        #expect(Self.key("https://api.example.com/items?tag=x&tag=y")
                != Self.key("https://api.example.com/items?tag=y&tag=x"))
        #expect(Self.key("https://api.example.com/items?tag=x&a=0&tag=y").components.endpoint
                == "https://api.example.com/items?a=0&tag=x&tag=y")
    }

    @Test func fragmentsAndTheCaseOfSchemeAndHostDoNotMatter() {
        #expect(Self.key("HTTPS://API.Example.com/items#top") == Self.key("https://api.example.com/items"))
        #expect(Self.key("https://api.example.com/Items") != Self.key("https://api.example.com/items"))
    }

    /// A URL already in normal form keeps its text (the common case takes a shortcut), and each
    /// spelling that is not normal still meets it.
    @Test(arguments: [
        ("http://127.0.0.1:8080/api/items", ["HTTP://127.0.0.1:8080/api/items", "http://127.0.0.1:8080/api/items#x"]),
        ("https://user:Pass@example.com/a%20b/c?a=1&a=0&b=", ["https://user:Pass@EXAMPLE.com/a%20b/c?b=&a=1&a=0"]),
        ("https://example.com/Path/?q=%C3%A9", ["https://Example.com/Path/?q=%C3%A9#frag"]),
        ("https://[::1]:9/x?a&b=2", ["https://[::1]:9/x?b=2&a"]),
    ])
    func aNormalURLKeepsItsTextAndOtherSpellingsMeetIt(normal: String, others: [String]) throws {
        let url = try #require(URL(string: normal))
        #expect(CacheKeyComponents.normalizedURL(url) == normal)
        for other in others {
            let spelled = try #require(URL(string: other))
            #expect(CacheKeyComponents.normalizedURL(spelled) == normal, "\(other)")
        }
    }

    @Test func methodPartitionAndPathChangeTheKey() {
        let keys = [
            Self.key("https://api.example.com/items"),
            Self.key("https://api.example.com/items", method: .head),
            Self.key("https://api.example.com/items", partition: .subject("alice")),
            Self.key("https://api.example.com/items/"),
            Self.key("https://api.example.com/items?"),
            Self.key("https://api.example.com/items?a"),
            Self.key("https://api.example.com/items?a="),
        ]
        // `?` with nothing after it is no query at all.
        #expect(Set(keys.map(\.hex)).count == keys.count - 1)
        #expect(keys[0] == keys[4])
    }

    @Test func theHeadersNamedByVaryAreComponents() {
        let english = Self.key("https://api.example.com/items", vary: ["Accept-Language"],
                               headers: ["Accept-Language": "en"])
        let german = Self.key("https://api.example.com/items", vary: ["accept-language"],
                              headers: ["accept-language": "de"])
        let none = Self.key("https://api.example.com/items", vary: ["Accept-Language"])
        let empty = Self.key("https://api.example.com/items", vary: ["Accept-Language"],
                             headers: ["Accept-Language": ""])
        let plain = Self.key("https://api.example.com/items", headers: ["Accept-Language": "en"])
        #expect(Set([english, german, none, empty, plain].map(\.hex)).count == 5)
        #expect(english.explain().contains(CacheKeyComponent(name: "vary:accept-language", value: "en")))
        #expect(none.explain().contains(CacheKeyComponent(name: "vary:accept-language", value: nil)))
    }

    @Test func theOrderOfVaryNamesDoesNotMatter() {
        let headers: HTTPHeaders = ["Accept": "application/json", "Accept-Language": "en"]
        #expect(Self.key("https://a.example/x", vary: ["Accept", "Accept-Language"], headers: headers)
                == Self.key("https://a.example/x", vary: ["accept-language", "ACCEPT", "accept"], headers: headers))
    }

    @Test func restAndGraphQLKeysNeverCollide() {
        let rest = Self.key("https://api.example.com/graphql")
        let graphQL = CacheKey.graphQL(operation: "", operationName: nil, variables: nil,
                                       endpoint: "https://api.example.com/graphql", partition: .anonymous)
        #expect(rest != graphQL)
        #expect(rest.components.name == "https://api.example.com/graphql")
        #expect(rest.components.statisticsName == "GET https://api.example.com/graphql")
    }
}
