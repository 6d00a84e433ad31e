import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// The cache remembers the last key made for each REST URL and reuses it only for a request
/// with the same components: requests to one URL under other partitions or other `Vary`
/// values still get keys of their own, and every key's digest is that of its components.
@Suite struct ResponseCacheKeyMemoTests {
    @Test func requestsToOneURLUnderAlternatingPartitionsKeepTheirOwnEntries() async throws {
        let stub = StubTransport()
            .on(.get, "items/1", reply: .json(#"{"a":1}"#, headers: ["Cache-Control": "max-age=60"]))
        let setup = CachedProvider(stub: stub)
        func outcome(_ authorization: String?) async throws -> CacheOutcome {
            var endpoint = Endpoint<Data>.get("items/1")
            endpoint.requiresAuthentication = false
            if let authorization { endpoint.headers["Authorization"] = authorization }
            return try await setup.provider.send(endpoint).cacheOutcome
        }
        #expect(try await outcome("Bearer a") == .miss)
        #expect(try await outcome("Bearer b") == .miss)
        #expect(try await outcome(nil) == .miss)
        #expect(try await outcome("Bearer a") == .hit)
        #expect(try await outcome("Bearer b") == .hit)
        #expect(try await outcome(nil) == .hit)
        #expect(stub.requests.count == 3)
        let keys = try await setup.store.list().map(\.entry.key)
        #expect(Set(keys.map(\.components.partition)).count == 3)
        for key in keys { #expect(key.digest == CacheKey(components: key.components).digest) }
    }

    @Test func aKeyMadeBeforeTheURLsVaryNamesWereKnownIsNotReusedAfter() async throws {
        let stub = StubTransport().on(.get, "greeting", reply: .json(
            #"{"a":1}"#, headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]))
        let setup = CachedProvider(stub: stub)
        func outcome(_ language: String) async throws -> CacheOutcome {
            try await setup.provider.send(Endpoint<Data>.get("greeting", headers: ["Accept-Language": language]))
                .cacheOutcome
        }
        #expect(try await outcome("en") == .miss)
        #expect(try await outcome("fr") == .miss)
        #expect(try await outcome("en") == .hit)
        #expect(try await outcome("fr") == .hit)
        #expect(stub.requests.count == 2)
        let keys = try await setup.store.list().map(\.entry.key)
        #expect(Set(keys.compactMap { $0.components.vary.first?.value }) == ["en", "fr"])
        for key in keys { #expect(key.digest == CacheKey(components: key.components).digest) }
    }
}
