import Foundation
import Testing
@testable import Gateway
import GatewayTesting

/// Redirects through the real `URLSessionTransport`: same origin as is, credentials dropped
/// across origins, refusals and the follow-up limit.
@Suite(.quietScheduler) struct URLSessionTransportRedirectTests {
    let transport = URLSessionTransport()
    static let credentials: HTTPHeaders = [
        "Authorization": "Bearer secret-token", "Cookie": "session=abc", "Proxy-Authorization": "Basic cHJveHk=",
        "X-Trace": "t-9",
    ]

    @Test func aSameOriginRedirectKeepsEveryHeader() async throws {
        let server = try LoopbackServer { request in
            request.path == "/old" ? .redirect(to: "/new?x=1") : .text("arrived")
        }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/old", headers: Self.credentials))

        #expect(String(decoding: response.body, as: UTF8.self) == "arrived")
        #expect(response.transportMetrics.redirects == 1)
        #expect(response.url?.path == "/new")
        let followed = try #require(server.requests.last)
        #expect(server.requests.count == 2)
        #expect(followed.target == "/new?x=1")
        #expect(followed.headers["Authorization"] == "Bearer secret-token")
        #expect(followed.headers["Cookie"] == "session=abc")
        #expect(followed.headers["Proxy-Authorization"] == "Basic cHJveHk=")
        #expect(followed.headers["X-Trace"] == "t-9")
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aCrossOriginRedirectArrivesWithoutCredentials(status: Int) async throws {
        let other = try LoopbackServer { _ in .text("elsewhere") }
        defer { other.shutdown() }
        let target = try other.url("/landing")
        let server = try LoopbackServer { _ in .redirect(to: target, status: status) }
        defer { server.shutdown() }

        let response = try await transport.send(try TransportTesting.request(server, "/start", headers: Self.credentials))

        #expect(String(decoding: response.body, as: UTF8.self) == "elsewhere")
        #expect(server.requests.first?.headers["Authorization"] == "Bearer secret-token")
        let arrived = try #require(other.requests.first)
        #expect(!arrived.headers.contains("Authorization"))
        #expect(!arrived.headers.contains("Cookie"))
        #expect(!arrived.headers.contains("Proxy-Authorization"))
        #expect(arrived.headers["X-Trace"] == "t-9")
    }

    @Test func credentialsDoNotComeBackWhenTheChainReturnsToTheFirstOrigin() async throws {
        let home = LockedURL()
        let other = try LoopbackServer { _ in .redirect(to: home.value ?? "/") }
        defer { other.shutdown() }
        let bounce = try other.url("/bounce")
        let server = try LoopbackServer { request in
            request.path == "/start" ? .redirect(to: bounce) : .text("home again")
        }
        defer { server.shutdown() }
        home.value = try server.url("/back").absoluteString

        let response = try await transport.send(try TransportTesting.request(server, "/start", headers: Self.credentials))

        #expect(String(decoding: response.body, as: UTF8.self) == "home again")
        #expect(response.transportMetrics.redirects == 2)
        let back = try #require(server.requests.last)
        #expect(back.path == "/back")
        #expect(!back.headers.contains("Authorization"))
        #expect(!back.headers.contains("Cookie"))
    }

    @Test func aSeeOtherAfterAPostContinuesAsAGetWithoutTheBody() async throws {
        let server = try LoopbackServer { request in
            request.path == "/submit" ? .redirect(to: "/result", status: 303) : .text("\(request.method) \(request.body.count)")
        }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(
            server, "/submit", method: .post, headers: ["Content-Type": "application/json"], body: .data(Data("{}".utf8))))
        #expect(String(decoding: response.body, as: UTF8.self) == "GET 0")
        #expect(server.requests.last?.headers.contains("Content-Type") == false)
    }

    @Test func aTemporaryRedirectResendsTheMethodAndTheBody() async throws {
        let body = TransportTesting.bytes(10_000, seed: 11)
        let server = try LoopbackServer { request in
            request.path == "/v1" ? .redirect(to: "/v2", status: 307) : .data(request.body)
        }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(
            server, "/v1", method: .put, headers: ["Content-Type": "application/octet-stream"], body: .data(body)))
        #expect(response.body == body)
        #expect(server.requests.map(\.method) == ["PUT", "PUT"])
    }

    /// `/hop/N` redirects to `/hop/N-1`; `/hop/0` answers.
    private func hopServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            let n = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return n == 0 ? .text("landed") : .redirect(to: "/hop/\(n - 1)")
        }
    }

    @Test func twentyRedirectsAreFollowed() async throws {
        let server = try hopServer()
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/hop/20"))
        #expect(String(decoding: response.body, as: UTF8.self) == "landed")
        #expect(response.transportMetrics.redirects == 20)
    }

    @Test func theTwentyFirstRedirectEndsWithTooManyRedirects() async throws {
        let server = try hopServer()
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/hop/21"))
        }
        #expect(error?.kind == .tooManyRedirects)
        #expect(error?.response?.status == 302)
        #expect(server.requests.count == 21)
    }

    @Test func theRedirectLimitCanBeLowered() async throws {
        let server = try hopServer()
        defer { server.shutdown() }
        let strict = URLSessionTransport(timeout: .seconds(30), maxRedirects: 2)
        let error = await #expect(throws: GatewayError.self) {
            try await strict.send(try TransportTesting.request(server, "/hop/3"))
        }
        #expect(error?.kind == .tooManyRedirects)
        #expect(server.requests.count == 3)
    }

    @Test func aRedirectToANonHTTPSchemeIsRefused() async throws {
        let server = try LoopbackServer { _ in .redirect(to: "ftp://127.0.0.1/file") }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/"))
        }
        #expect(error?.kind == .redirectRefused)
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefused() throws {
        let request = HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.com/a")),
                                  headers: ["Authorization": "Bearer t"])
        let exchange = URLSessionTransport.Exchange(
            status: 301, headers: ["Location": "http://api.example.com/a"], url: request.url, body: Data(),
            timeToFirstByte: nil, bytesSent: 0)
        var chain = URLSessionTransport.RedirectChain(from: request)
        #expect(throws: GatewayError.self) {
            try URLSessionTransport.redirect(after: exchange, of: request, chain: &chain, maxRedirects: 20)
        }
    }

    @Test func anHTTPSRedirectToAnotherPortDropsCredentials() throws {
        let request = HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.com/a")),
                                  headers: Self.credentials)
        let exchange = URLSessionTransport.Exchange(
            status: 302, headers: ["Location": "https://api.example.com:8443/b"], url: request.url, body: Data(),
            timeToFirstByte: nil, bytesSent: 0)
        var chain = URLSessionTransport.RedirectChain(from: request)
        let next = try #require(try URLSessionTransport.redirect(after: exchange, of: request, chain: &chain, maxRedirects: 20))
        #expect(next.url.absoluteString == "https://api.example.com:8443/b")
        #expect(!next.headers.contains("Authorization"))
        #expect(next.headers["X-Trace"] == "t-9")
    }

    @Test func aRedirectWithoutLocationIsTheFinalResponse() async throws {
        let server = try LoopbackServer { _ in .text("moved, but where?", status: 302, headers: ["X-Why": "no location"]) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/"))
        #expect(response.status == 302)
        #expect(response.headers["X-Why"] == "no location")
        #if canImport(Darwin)
        // FoundationNetworking drops the body of a 3xx it does not redirect.
        #expect(String(decoding: response.body, as: UTF8.self) == "moved, but where?")
        #endif
    }
}

/// A URL string set after the servers that use it exist.
private final class LockedURL: Sendable {
    private let storage = URLSessionTransport.Protected<String?>(nil)
    var value: String? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
