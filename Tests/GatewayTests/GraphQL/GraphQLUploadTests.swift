import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Uploads by the GraphQL multipart request spec, received by a loopback server.
@Suite struct GraphQLUploadTests {
    /// Bytes that exercise a multipart body: every byte value, CRLFs, and lines that look like
    /// delimiters.
    static func awkwardBytes(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var words = [UInt64](repeating: 0, count: count / 8 + 1)
        for index in words.indices { words[index] = generator.next() }
        var bytes = words.withUnsafeBytes { Array($0.prefix(count)) }
        let trap = Array("\r\n--gateway-boundary\r\n\r\n--".utf8)
        for (offset, byte) in trap.enumerated() where offset < count { bytes[offset] = byte }
        return Data(bytes)
    }

    @Test func aFileIsReceivedByteForByte() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let image = Self.awkwardBytes(count: 200_000)
        let response = try await GraphQLEndToEndTests.provider(server).fetch(
            GraphQLFixtures.store()["UploadPlaylistCover"], variables: ["playlistID": "p1"],
            uploads: ["image": .data(image, filename: "cover.png", contentType: "image/png")], as: JSONValue.self)
        #expect(response.data == server.answered.value.first)
        let received = try #require(server.received.value.first)
        #expect(received.transport == "multipart")
        #expect(received.variables == ["playlistID": "p1", "image": nil])
        #expect(received.map == ["0": ["variables.image"]])
        let file = try #require(received.file(forVariable: "image"))
        #expect(file.content == image)
        #expect(file.filename == "cover.png")
        #expect(file.contentType == "image/png")
        let contentType = server.server.requests.first?.headers["Content-Type"] ?? ""
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
    }

    @Test func aLargeFileFromDiskIsStreamedAndReceivedByteForByte() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("gateway-upload-\(UUID().uuidString).bin")
        let bytes = Self.awkwardBytes(count: 3 * 1024 * 1024 + 17)
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try await GraphQLEndToEndTests.provider(server).fetch(
            GraphQLFixtures.store()["UploadPlaylistCover"], variables: ["playlistID": "p1"],
            uploads: ["image": .file(url)], as: JSONValue.self)
        let file = try #require(server.received.value.first?.file(forVariable: "image"))
        #expect(file.content == bytes)
        #expect(file.filename == url.lastPathComponent)
        #expect(file.contentType == "application/octet-stream")
    }

    @Test func filesInAListFillTheirPlaceholders() async throws {
        let stub = StubTransport()
        stub.on(.graphQL("Attach"), reply: [.graphQL(data: ["attach": true])])
        let operation = try GraphQLOperation("mutation Attach($files: [Upload!]!, $note: String) { attach }")
        let provider = makeProvider(stub)
        _ = try await provider.fetch(
            operation, variables: ["files": [nil, nil], "note": "two"],
            uploads: ["files.1": .data(Data("second".utf8), filename: "b.txt", contentType: "text/plain"),
                      "files.0": .data(Data("first".utf8), filename: "a.txt", contentType: "text/plain")],
            as: JSONValue.self)
        let received = try #require(stub.graphQLRequests.first)
        #expect(received.map == ["0": ["variables.files.0"], "1": ["variables.files.1"]])
        #expect(received.file(forVariable: "files.0")?.content == Data("first".utf8))
        #expect(received.file(forVariable: "files.1")?.content == Data("second".utf8))
        #expect(received.variables == ["files": [nil, nil], "note": "two"])
    }

    @Test func anUploadPathThatGoesNowhereIsAClearError() async throws {
        let stub = StubTransport()
        let operation = try GraphQLOperation("mutation Attach($files: [Upload!]!) { attach }")
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).fetch(operation, variables: ["files": [nil]],
                                               uploads: ["files.3": .data(Data(), filename: "x")], as: JSONValue.self)
        }
        #expect(error.kind == .invalidVariables)
        #expect(error.message.contains("\"files.3\" is not a place inside $files"))
        #expect(stub.requests.isEmpty)
    }
}
