import Foundation
import Gateway
import Testing

/// The redirect rules both transports share, hop by hop.
@Suite struct RedirectChainTests {
    func request(_ url: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(URL(string: url)), headers: headers)
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefused() throws {
        let first = try request("https://api.example.com/a", headers: ["Authorization": "Bearer t"])
        var chain = RedirectChain(from: first, maxRedirects: 20)
        let error = #expect(throws: GatewayError.self) {
            try chain.next(status: 301, headers: ["Location": "http://api.example.com/a"], after: first)
        }
        #expect(error?.kind == .redirectRefused)
    }

    @Test func anotherPortDropsCredentialsAndTheyNeverComeBack() throws {
        let first = try request("https://api.example.com/a",
                                headers: ["Authorization": "Bearer secret", "Cookie": "a=b", "X-Trace": "t-9"])
        var chain = RedirectChain(from: first, maxRedirects: 20)
        let away = try #require(try chain.next(
            status: 302, headers: ["Location": "https://api.example.com:8443/b"], after: first))
        #expect(away.url.absoluteString == "https://api.example.com:8443/b")
        #expect(!away.headers.contains("Authorization") && !away.headers.contains("Cookie"))
        #expect(away.headers["X-Trace"] == "t-9")
        #expect(chain.hasLeftOrigin)
        var returning = away
        returning.headers["Authorization"] = "Bearer secret"
        let back = try #require(try chain.next(status: 307, headers: ["Location": "https://api.example.com/c"],
                                               after: returning))
        #expect(!back.headers.contains("Authorization"))
        #expect(chain.count == 2)
    }

    @Test func aSameOriginRedirectKeepsCredentials() throws {
        let first = try request("https://api.example.com/a", headers: ["Authorization": "Bearer t"])
        var chain = RedirectChain(from: first, maxRedirects: 20)
        let next = try #require(try chain.next(status: 308, headers: ["Location": "/b?x=1"], after: first))
        #expect(next.url.absoluteString == "https://api.example.com/b?x=1")
        #expect(next.headers["Authorization"] == "Bearer t")
    }

    @Test(arguments: [(303, HTTPMethod.post, HTTPMethod.get), (302, .post, .get), (307, .post, .post),
                      (308, .put, .put), (303, .head, .head)])
    func theMethodAfterARedirect(status: Int, method: HTTPMethod, expected: HTTPMethod) throws {
        var first = try request("https://api.example.com/a", method: method,
                                headers: ["Content-Type": "application/json"])
        first.body = .data(Data("{}".utf8))
        var chain = RedirectChain(from: first, maxRedirects: 20)
        let next = try #require(try chain.next(status: status, headers: ["Location": "/b"], after: first))
        #expect(next.method == expected)
        #expect((next.body == nil) == (expected != method))
        #expect(next.headers.contains("Content-Type") == (expected == method))
    }

    @Test func moreRedirectsThanAllowedEndTheChain() throws {
        let first = try request("https://api.example.com/a")
        var chain = RedirectChain(from: first, maxRedirects: 2)
        var current = first
        for _ in 0..<2 {
            current = try #require(try chain.next(status: 302, headers: ["Location": "/loop"], after: current))
        }
        let error = #expect(throws: GatewayError.self) {
            try chain.next(status: 302, headers: ["Location": "/loop"], after: current)
        }
        #expect(error?.kind == .tooManyRedirects)
    }

    @Test(arguments: ["ftp://files.example.com/x", "http://[bad", "https://"])
    func aLocationThatCannotBeFollowedIsAnError(location: String) throws {
        let first = try request("https://api.example.com/a")
        var chain = RedirectChain(from: first, maxRedirects: 20)
        let error = #expect(throws: GatewayError.self) {
            try chain.next(status: 301, headers: ["Location": location], after: first)
        }
        #expect(error?.kind == .redirectRefused || error?.kind == .invalidResponse)
    }

    @Test func aResponseWithoutLocationIsFinal() throws {
        let first = try request("https://api.example.com/a")
        var chain = RedirectChain(from: first, maxRedirects: 20)
        #expect(try chain.next(status: 302, headers: [:], after: first) == nil)
        #expect(try chain.next(status: 200, headers: ["Location": "/b"], after: first) == nil)
        #expect(chain.count == 0)
    }
}
