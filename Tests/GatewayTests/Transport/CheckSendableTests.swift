import Foundation
import Gateway
import Testing

@Suite struct CheckSendableTests {
    private func request(_ url: String, method: HTTPMethod = .get, _ fields: [(String, String)] = [],
                         body: Data? = nil) throws -> HTTPRequest {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name: name, value: value) }
        var request = HTTPRequest(method: method, url: try #require(URL(string: url)), headers: headers)
        if let body { request.body = .data(body) }
        return request
    }

    @Test(arguments: ["http://example.com/a", "https://example.com", "HTTP://Example.com/", "hTtPs://example.com:8443/x"])
    func anHTTPOrHTTPSURLWithAHostIsSendable(_ url: String) throws {
        #expect(throws: Never.self) { try request(url).checkSendable() }
    }

    @Test(arguments: ["ftp://example.com/a", "file:///tmp/x", "httpx://example.com", "http:/relative", "mailto:a@b.c"])
    func anotherSchemeOrNoHostIsRefused(_ url: String) throws {
        let error = #expect(throws: GatewayError.self) { try request(url).checkSendable() }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("is not an absolute http or https URL") == true)
    }

    @Test func fieldsHTTPAllowsPass() throws {
        let fields = [("X-Trace", "a\tb"), ("Accept", "*/*"), ("X-Name", "Zoë 😀"), ("X-Empty", "")]
        #expect(throws: Never.self) { try request("https://example.com", fields).checkSendable() }
    }

    @Test(arguments: [
        ("", "v"), ("X Space", "v"), ("X:Colon", "v"), ("X-Zoë", "v"), ("X-\u{7F}", "v"),
        ("X-Value", "a\rb"), ("X-Value", "a\nb"), ("X-Value", "a\u{0}b"),
    ])
    func aFieldHTTPDoesNotAllowIsRefused(_ name: String, _ value: String) throws {
        let error = #expect(throws: GatewayError.self) {
            try request("https://example.com", [("Accept", "*/*"), (name, value)]).checkSendable()
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("has a name or value that HTTP does not allow") == true)
    }

    @Test func aGetWithABodyIsRefused() throws {
        let error = #expect(throws: GatewayError.self) {
            try request("https://example.com", body: Data("x".utf8)).checkSendable()
        }
        #expect(error?.kind == .invalidRequest)
        #expect(throws: Never.self) { try request("https://example.com", method: .post, body: Data("x".utf8)).checkSendable() }
    }
}
