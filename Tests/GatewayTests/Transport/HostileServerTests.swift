import Foundation
@testable import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// A server that breaks HTTP on purpose, played by `LoopbackResponse.Fault.raw`: each reply ends
/// the call with a transport error that names what the server did wrong (never the caller's
/// usage error), keeps the platform's own words, and comes well before the call's deadline.
@Suite(.quietScheduler) struct HostileServerTests {
    /// A reply that is not valid HTTP, and what the error must say about it.
    struct Reply: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: Data
        var says: String

        var testDescription: String { name }

        static func text(_ name: String, _ text: String, says: String) -> Reply {
            Reply(name: name, bytes: Data(text.utf8), says: says)
        }

        static let all: [Reply] = [
            .text("a status line with letters for digits", "HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\nhi",
                  says: "its status line is not valid HTTP/1.x"),
            .text("an HTTP/0.9 reply", "hello world\n", says: "the reply does not start with an HTTP status line"),
            Reply(name: "binary garbage", bytes: Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
                  says: "the reply does not start with an HTTP status line"),
            .text("a header line of 1 MB", "HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 1 << 20)
                    + "\r\nContent-Length: 2\r\n\r\nhi",
                  says: "a header line is longer than the platform accepts"),
            .text("a NUL byte in a header", "HTTP/1.1 200 OK\r\nX-A: a\u{0}b\r\nContent-Length: 2\r\n\r\nhi",
                  says: "a header line contains a NUL byte"),
            .text("a header line without a colon", "HTTP/1.1 200 OK\r\nXnocolon\r\nContent-Length: 2\r\n\r\nhi",
                  says: "a header line has no colon"),
            .text("100,000 interim 100 Continue responses",
                  String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 100_000)
                    + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
                  says: "its headers are larger than the platform accepts"),
            .text("a gzip body that is not gzip",
                  "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\nnotgzip!!!",
                  says: "its body could not be decompressed"),
            .text("a Content-Length of 23 digits before a 2-byte body",
                  "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nhi",
                  says: "its Content-Length \"99999999999999999999999\" is not a valid length"),
            .text("a Content-Length that is not a number",
                  "HTTP/1.1 200 OK\r\nContent-Length: 2x\r\n\r\nhi", says: "its Content-Length \"2x\" is not a valid length"),
        ]
    }

    @Test(arguments: Reply.all)
    func aMalformedReplyIsATransportErrorNamingWhatTheServerDidWrong(_ reply: Reply) async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .raw(reply.bytes)) }
        defer { server.shutdown() }
        var request = try TransportConformance.request(server, "/hostile", timeout: .seconds(20))
        request.deadline = .now + .seconds(20)

        let transport = URLSessionTransport()  // kept until the body is read
        let error = try await #require(throws: GatewayError.self) {
            try await transport.send(request).collect(upTo: request.maxResponseBytes)
        }

        // Not `.timeout`: the call ended on the reply, well before its deadline.
        #expect(error.kind == .transport, "\(error)")
        #expect(error.message.contains("is not valid HTTP: \(reply.says)"), "\(error.message)")
        #expect(!error.message.contains("URL"), "a reply's fault is never blamed on the URL: \(error.message)")
        #expect(error.fix?.contains("fix the server") == true)
        let underlying = try #require(error.underlying as? URLError)
        #expect(!RetryPolicy.retryableErrorCodes.contains(underlying.code.rawValue), "sending again will not help")
    }

    @Test func aMalformedReplyThroughTheProviderIsNotRetriedNorBlamedOnTheCaller() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .raw(Data("hello world\n".utf8))) }
        defer { server.shutdown() }
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport())

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("hostile"))
        }

        #expect(error.kind == .transport)
        #expect(error.message.contains("HTTP/0.9"), "\(error.message)")
        #expect(server.requests.count == 1, "a malformed reply is not retried")
    }

    @Test func invalidUTF8InAJSONBodyIsADecodingErrorNamingItsOffset() async throws {
        struct Named: Decodable { var name: String }
        let body = Data(#"{"name":"x"#.utf8) + Data([0xFF, 0xFE]) + Data(#"y"}"#.utf8)
        let server = try LoopbackServer { _ in .data(body, contentType: "application/json") }
        defer { server.shutdown() }
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport())

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Named>.get("named"))
        }

        #expect(error.kind == .decoding)
        #expect(error.message.contains("invalid UTF-8"), "\(error.message)")
        #expect(error.message.contains("byte offset 10"), "\(error.message)")
    }

    @Test func anUntrustedCertificateIsNamedWithThePlatformsWords() throws {
        let request = HTTPRequest(method: .get, url: try #require(URL(string: "https://127.0.0.1:8443/")))
        let platform = NSError(domain: NSURLErrorDomain, code: URLError.Code.unknown.rawValue,
                               userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem: self-signed certificate"])

        let error = try #require(URLSessionTransport.map(platform, request: request, idleTimeout: .seconds(1)) as? GatewayError)

        #expect(error.kind == .transport)
        #expect(error.message.contains("the TLS connection to https://127.0.0.1:8443 failed: its TLS certificate is not trusted"))
        #expect(error.message.contains("\"SSL certificate problem: self-signed certificate\""))
        #expect((error.underlying as? URLError)?.code == .serverCertificateUntrusted)
    }
}
