import Foundation
import Gateway
import GatewayTesting
import Testing

/// Request bodies as the server receives them, and responses as `provider.send` returns them,
/// through the real `URLSessionTransport` and a loopback server.
@Suite struct BodyEndToEndTests {
    struct NewTrack: Encodable, Sendable {
        var title: String
        var durationMs: Int
        var tags: [String]
        var explicit: Bool
    }

    struct Created: Decodable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    @Test func aJSONBodyArrivesAsSortedJSONAndTheAnswerIsDecoded() async throws {
        let server = try LoopbackServer { _ in .json(#"{"id": 7, "title": "Night Drive"}"#, status: 201) }
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { $0.jsonEncoding.keys = .convertToSnakeCase }
        let body = NewTrack(title: "Night Drive", durationMs: 215_000, tags: ["synth", "é"], explicit: false)

        let response = try await provider.send(Endpoint<Created>.post("tracks", body: body))

        #expect(response.status == 201)
        #expect(response.value == Created(id: 7, title: "Night Drive"))
        let request = try EndToEnd.onlyRequest(server)
        #expect(request.method == "POST")
        #expect(request.path == "/api/tracks")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.text == #"{"duration_ms":215000,"explicit":false,"tags":["synth","é"],"title":"Night Drive"}"#)
        #expect(request.headers["Content-Length"] == String(request.body.count))
    }

    @Test func aFormBodyArrivesURLEncodedWithTheStrategies() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.shutdown() }
        let body = NewTrack(title: "A b+c&d=é", durationMs: 1, tags: ["x", "y"], explicit: true)

        let response = try await EndToEnd.provider(server).send(
            Endpoint<Empty>.post("tracks", body: body, encoder: .form(arrays: .repeated, bools: .literal)))

        #expect(response.status == 204)
        let request = try EndToEnd.onlyRequest(server)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(request.text == "durationMs=1&explicit=true&tags=x&tags=y&title=A+b%2Bc%26d%3D%C3%A9")
        #expect(EndToEnd.pairs(EndToEnd.formItems(request.body))
            == ["durationMs=1", "explicit=true", "tags=x", "tags=y", "title=A b+c&d=é"])
    }

    /// Below and above the default streaming threshold of 1 MiB: in memory, then from a
    /// temporary file that is removed once the request is sent.
    @Test(arguments: [200 * 1024, 3 * 1024 * 1024 + 17])
    func aMultipartFilePartArrivesByteForByte(size: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("cover art.png")
        let bytes = TransportConformance.bytes(size, seed: UInt64(size))
        try bytes.write(to: file)
        let spool = folder.url.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }
        var form = MultipartForm()
        form.append(.text("title", "Night Drive — live"))
        form.append(.file("cover", url: file))
        form.append(.data("notes", Data("a\r\n--b".utf8), filename: "notes.txt", contentType: "text/plain"))

        let response = try await EndToEnd.provider(server).send(
            Endpoint<Data>.post("uploads", body: form, encoder: .multipart(temporaryDirectory: spool)))

        let request = try EndToEnd.onlyRequest(server)
        #expect(String(decoding: response.value, as: UTF8.self) == "\(request.body.count)")
        let boundary = try MultipartReader.boundary(fromContentType: request.headers["Content-Type"])
        let parts = try MultipartReader.parts(request.body, boundary: boundary)
        try #require(parts.count == 3)
        #expect(parts[0].name == "title")
        #expect(parts[0].filename == nil)
        #expect(parts[0].contentType == nil)
        #expect(String(decoding: parts[0].content, as: UTF8.self) == "Night Drive — live")
        #expect(parts[1].name == "cover")
        #expect(parts[1].filename == "cover art.png")
        #expect(parts[1].contentType == "image/png")
        #expect(parts[1].content.count == size)
        #expect(parts[1].content == bytes)
        #expect(parts[2].filename == "notes.txt")
        #expect(parts[2].content == Data("a\r\n--b".utf8))
        let spooled = try FileManager.default.contentsOfDirectory(atPath: spool.path)
        #expect(spooled.isEmpty, "the temporary body file is removed after sending: \(spooled)")
    }

    @Test func a204WithNoBodyDecodesIntoEmpty() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.shutdown() }
        let response = try await EndToEnd.provider(server).send(Endpoint<Empty>.delete("tracks/7"))
        #expect(response.status == 204)
        #expect(response.value == Empty())
        #expect(response.httpResponse.body.isEmpty)
        #expect(try EndToEnd.onlyRequest(server).method == "DELETE")
    }

    @Test func a204IntoADecodableTypeIsADecodingErrorThatSaysToUseEmpty() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.shutdown() }
        let error = try await #require(throws: GatewayError.self) {
            try await EndToEnd.provider(server).send(Endpoint<Created>.get("tracks/7"))
        }
        #expect(error.kind == .decoding)
        #expect(error.description.contains("Endpoint<Empty>"))
    }

    struct APIErrorBody: Decodable, Sendable {
        struct Detail: Decodable, Sendable {
            var code: String
            var message: String
        }
        var error: Detail
    }

    @Test(arguments: [
        (404, "track_not_found", "check the path"),
        (422, "invalid_title", "check the parameters"),
    ])
    func a4xxAPIErrorBodyIsDecodedIntoTheError(status: Int, code: String, fix: String) async throws {
        let server = try LoopbackServer { _ in
            .json(#"{"error": {"code": "\#(code)", "message": "the server says no"}}"#, status: status)
        }
        defer { server.shutdown() }
        let error = try await #require(throws: GatewayError.self) {
            try await EndToEnd.provider(server).send(Endpoint<Created>.get("tracks/999").apiError(APIErrorBody.self))
        }
        #expect(error.kind == .status)
        #expect(error.status == status)
        #expect(error.endpoint == "GET tracks/999")
        let body = try #require(error.apiError(as: APIErrorBody.self))
        #expect(body.error.code == code)
        #expect(body.error.message == "the server says no")
        // What went wrong, where, and how to fix it.
        #expect(error.description.contains("expected 2xx, got \(HTTPStatus.describe(status))"))
        #expect(error.description.contains("GET tracks/999"))
        #expect(error.description.contains("Fix: \(fix)"))
    }

    @Test func anAPIErrorBodyThatDoesNotDecodeStillGivesTheStatusError() async throws {
        let server = try LoopbackServer { _ in .text("<html>gateway timeout</html>", status: 404) }
        defer { server.shutdown() }
        let error = try await #require(throws: GatewayError.self) {
            try await EndToEnd.provider(server).send(Endpoint<Created>.get("tracks/1").apiError(APIErrorBody.self))
        }
        #expect(error.kind == .status)
        #expect(error.apiError == nil)
        #expect(error.message.contains("could not be decoded as APIErrorBody"))
    }
}
