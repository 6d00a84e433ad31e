import Foundation
import Gateway
import GatewayLoopback
import GatewayTestSupport
import GatewayTesting
import Testing

/// Event streams and multipart bodies read as they arrive from a real server through
/// `URLSessionTransport`, the server cutting them into small chunks.
@Suite(.quietScheduler) struct StreamingEndToEndTests {
    static func serve(_ body: String, contentType: String) throws -> LoopbackServer {
        try LoopbackServer { _ in
            LoopbackResponse(headers: ["Content-Type": contentType], body: Data(body.utf8),
                             fault: .throttleBody(chunk: 5, every: .milliseconds(1)))
        }
    }

    @Test func serverSentEventsArriveInOrderFromAChunkedBody() async throws {
        let text = (1...20).map { "id: \($0)\nevent: count\ndata: {\"n\":\($0)}\n\n" }.joined()
        let server = try Self.serve(": hello\n\n" + text, contentType: "text/event-stream")
        defer { server.shutdown() }
        let request = try TransportConformance.request(server, "/events", timeout: .seconds(20))
        let transport = URLSessionTransport()  // kept until the body is read

        let response = try await transport.send(request)
        var events: [ServerSentEvent] = []
        for try await event in response.body.serverSentEvents() { events.append(event) }

        #expect(response.status == 200)
        #expect(events.map(\.data) == (1...20).map { "{\"n\":\($0)}" })
        #expect(events.map(\.lastEventID) == (1...20).map(String.init))
        #expect(events.allSatisfy { $0.type == "count" })
    }

    @Test func multipartPartsArriveInOrderFromAChunkedBody() async throws {
        let parts = (1...20).map { "--graphql\r\nContent-Type: application/json\r\n\r\n{\"payload\":{\"n\":\($0)}}\r\n" }
        let server = try Self.serve("\r\n" + parts.joined() + "--graphql--\r\n",
                                    contentType: "multipart/mixed; boundary=\"graphql\"; subscriptionSpec=1.0")
        defer { server.shutdown() }
        let request = try TransportConformance.request(server, "/subscription", timeout: .seconds(20))
        let transport = URLSessionTransport()  // kept until the body is read

        let response = try await transport.send(request)
        let reader = try MultipartMixedReader(contentType: response.headers["Content-Type"])
        var bodies: [String] = []
        for try await part in ReadChunks(response.body, reader: reader) {
            bodies.append(String(decoding: part.body, as: UTF8.self))
        }

        #expect(bodies == (1...20).map { "{\"payload\":{\"n\":\($0)}}" })
    }
}
