import Foundation
import Gateway
import GatewayTesting
import Testing

/// The HTTP caching rules (RFC 9111), one test each, through the real `URLSessionTransport`
/// against a loopback server on 127.0.0.1. The cache's clock is moved by hand; the server's is real.
@Suite struct HTTPCacheRulesEndToEndTests {
    /// A provider with a memory-store cache, the clock it reads, and the server.
    private struct Setup {
        let server: LoopbackServer
        let clock = CacheClock()
        let store = MemoryCacheStore()
        let provider: Provider

        init(_ handler: @escaping LoopbackHandler) throws {
            server = try LoopbackServer(handler: handler)
            let cache = ResponseCache(store: store, defaultTTL: .seconds(300), now: clock.read)
            provider = try EndToEnd.provider(server) { config in
                config.cache = cache
                config.retryPolicy = .none
            }
        }

        func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> Response<String> {
            try await provider.send(Endpoint<Data>.get(path, headers: headers)).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test func noStoreIsNeverStored() async throws {
        let setup = try Setup { _ in .text("secret", headers: ["Cache-Control": "no-store, max-age=600"]) }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        let second = try await setup.get("a")
        #expect(second.cacheOutcome == .notCacheable)
        #expect(setup.server.requests.count == 2)
        #expect(await setup.store.list(.all, includeBodies: false).isEmpty)
    }

    @Test func maxAgeSetsFreshness() async throws {
        let setup = try Setup { _ in .text("v", headers: ["Cache-Control": "max-age=60"]) }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        setup.clock.advance(by: 59)
        #expect(try await setup.get("a").cacheOutcome == .hit)
        setup.clock.advance(by: 2)
        #expect(try await setup.get("a").cacheOutcome == .miss)
        #expect(setup.server.requests.count == 2)
    }

    @Test func ageShortensMaxAge() async throws {
        let setup = try Setup { _ in .text("v", headers: ["Cache-Control": "max-age=60", "Age": "50"]) }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        setup.clock.advance(by: 11)
        #expect(try await setup.get("a").cacheOutcome == .miss)
    }

    @Test func expiresSetsFreshnessFromTheResponseDate() async throws {
        let served = Date(timeIntervalSince1970: 1_700_000_000)
        let headers: LoopbackHeaders = ["Date": Self.httpDate(served),
                                        "Expires": Self.httpDate(served.addingTimeInterval(120))]
        let setup = try Setup { _ in .text("v", headers: headers) }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        setup.clock.advance(by: 119)
        #expect(try await setup.get("a").cacheOutcome == .hit)
        setup.clock.advance(by: 2)
        #expect(try await setup.get("a").cacheOutcome == .miss)
    }

    @Test func anInvalidExpiresMeansAlreadyExpired() async throws {
        let setup = try Setup { _ in .text("v", headers: ["Expires": "0"]) }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        #expect(try await setup.get("a").cacheOutcome == .miss)
    }

    @Test func noCacheRevalidatesWithTheETagAndA304ServesTheStoredBody() async throws {
        let setup = try Setup { request in
            if request.headers["If-None-Match"] == "\"v1\"" {
                return .status(304, headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache", "X-Checked": "yes"])
            }
            return .text("body one", headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache"])
        }
        defer { setup.server.shutdown() }
        let first = try await setup.get("a")
        let second = try await setup.get("a")
        #expect(first.cacheOutcome == .miss)
        #expect(second.cacheOutcome == .revalidated)
        #expect(second.value == "body one")
        #expect(second.status == 200)
        #expect(second.httpResponse.headers["X-Checked"] == "yes")
        let requests = setup.server.requests
        #expect(requests.count == 2)
        #expect(requests.first?.headers["If-None-Match"] == nil)
        #expect(requests.last?.headers["If-None-Match"] == "\"v1\"")
        let stored = try #require(await setup.store.list().first)
        #expect(stored.entry.headers["X-Checked"] == "yes")
    }

    @Test func aStaleEntryRevalidatesWithLastModifiedAndThe304RefreshesItsFreshness() async throws {
        let modified = "Tue, 14 Nov 2023 22:13:20 GMT"
        let setup = try Setup { request in
            if request.headers["If-Modified-Since"] == modified { return .status(304, headers: ["Cache-Control": "max-age=30"]) }
            return .text("body", headers: ["Last-Modified": modified, "Cache-Control": "max-age=10"])
        }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        setup.clock.advance(by: 11)
        let revalidated = try await setup.get("a")
        #expect(revalidated.cacheOutcome == .revalidated)
        #expect(revalidated.value == "body")
        setup.clock.advance(by: 29)
        #expect(try await setup.get("a").cacheOutcome == .hit)
        #expect(setup.server.requests.count == 2)
    }

    @Test func aChangedResourceAnswersTheRevalidationInFull() async throws {
        let version = Locked(1)
        let setup = try Setup { _ in
            let current = version.value
            return .text("body \(current)", headers: ["ETag": "\"v\(current)\"", "Cache-Control": "no-cache"])
        }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        version.withLock { $0 = 2 }
        let changed = try await setup.get("a")
        #expect(changed.value == "body 2")
        #expect(changed.cacheOutcome == .miss)
        #expect(try await setup.store.list().first?.entry.etag == "\"v2\"")
    }

    @Test func varyPutsTheNamedRequestHeadersInTheKey() async throws {
        let setup = try Setup { request in
            .text("hello in \(request.headers["Accept-Language"] ?? "none")",
                  headers: ["Vary": "Accept-Language", "Cache-Control": "max-age=60"])
        }
        defer { setup.server.shutdown() }
        let english = try await setup.get("a", headers: ["Accept-Language": "en"])
        let french = try await setup.get("a", headers: ["Accept-Language": "fr"])
        let englishAgain = try await setup.get("a", headers: ["Accept-Language": "en"])
        let frenchAgain = try await setup.get("a", headers: ["Accept-Language": "fr"])
        #expect(english.value == "hello in en" && french.value == "hello in fr")
        #expect(french.cacheOutcome == .miss)
        #expect(englishAgain.cacheOutcome == .hit && englishAgain.value == "hello in en")
        #expect(frenchAgain.cacheOutcome == .hit && frenchAgain.value == "hello in fr")
        #expect(setup.server.requests.count == 2)
        let varied = try await setup.store.list().map { $0.entry.key.components.vary }
        #expect(Set(varied.map { $0.first?.value }) == ["en", "fr"])
    }

    @Test func varyStarIsNeverStored() async throws {
        let setup = try Setup { _ in .text("v", headers: ["Vary": "*", "Cache-Control": "max-age=60"]) }
        defer { setup.server.shutdown() }
        _ = try await setup.get("a")
        #expect(try await setup.get("a").cacheOutcome == .notCacheable)
        #expect(setup.server.requests.count == 2)
    }

    @Test func aSuccessfulUnsafeRequestInvalidatesTheURL() async throws {
        let setup = try Setup { request in
            request.method == "GET" ? .text("v", headers: ["Cache-Control": "max-age=60"]) : .status(204)
        }
        defer { setup.server.shutdown() }
        _ = try await setup.get("items/1")
        #expect(try await setup.get("items/1").cacheOutcome == .hit)
        _ = try await setup.provider.send(Endpoint<Empty>.post("items/1", body: ["a": 1]))
        #expect(try await setup.get("items/1").cacheOutcome == .miss)
    }

    @Test func aPartialResponseIsNeverStored() async throws {
        let setup = try Setup { _ in
            LoopbackResponse(status: 206, headers: ["Content-Range": "bytes 0-1/10", "Cache-Control": "max-age=60"],
                             body: Data("ab".utf8))
        }
        defer { setup.server.shutdown() }
        _ = try await setup.provider.send(Endpoint<Data>.get("a"))
        #expect(await setup.store.list(.all, includeBodies: false).isEmpty)
    }
}
