import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Generated operations with `Upload` variables: their `GraphQLUpload` properties encode as
/// `null` and `uploads` names the files, which go out as a multipart request exactly as the
/// string-keyed `fetch(_:variables:uploads:as:)` sends them.
@Suite struct GeneratedUploadTests {
    /// Two small files for the upload tests.
    static let cover = GraphQLUpload.data(Data("PNG bytes".utf8), filename: "cover.png", contentType: "image/png")
    static let notes = GraphQLUpload.data(Data("some notes".utf8), filename: "notes.txt", contentType: "text/plain")

    @Test func theFixturesDefinitionsAreTrueToTheirText() throws {
        for definition in [CoverUploadMutation.definition, AttachFilesMutation.definition] {
            let parsed = try GraphQLOperation(definition.text)
            #expect(parsed.normalizedText == definition.normalizedText, "\(definition.name)")
        }
    }

    @Test func aTypedUploadIsSentAsTheStringKeyedPathSendsIt() async throws {
        let stub = StubTransport()
        stub.onGraphQL("UploadPlaylistCover", reply: .graphQL(data: ["uploadPlaylistCover": ["id": "p1"]]))
        let provider = makeProvider(stub)
        let typed = try await provider.fetch(CoverUploadMutation(playlistID: "p1", image: Self.cover))
        #expect(typed.data.uploadPlaylistCover.id == "p1")
        _ = try await provider.fetch(GraphQLOperation(definition: CoverUploadMutation.definition),
                                     variables: ["playlistID": "p1"], uploads: ["image": Self.cover],
                                     as: JSONValue.self)
        try #require(stub.requests.count == 2)
        let received = try #require(stub.graphQLRequests.first)
        #expect(received.transport == "multipart")
        #expect(received.variables == ["playlistID": "p1", "image": nil])
        #expect(received.map == ["0": ["variables.image"]])
        let file = try #require(received.file(forVariable: "image"))
        #expect(file.content == Data("PNG bytes".utf8))
        #expect(file.filename == "cover.png")
        #expect(file.contentType == "image/png")
        let stringKeyed = try #require(stub.graphQLRequests.last)
        #expect(received.query == stringKeyed.query && received.operationName == stringKeyed.operationName)
        #expect(received.variables == stringKeyed.variables)
        #expect(received.map == stringKeyed.map)
        #expect(received.files == stringKeyed.files)
        #expect(received.transport == stringKeyed.transport)
        for recorded in stub.requests {
            #expect(recorded.method == .post)
            #expect(recorded.headers["X-Apollo-Operation-Name"] == "UploadPlaylistCover")
            #expect(recorded.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        }
    }

    @Test func aListOfTypedUploadsFillsIndexedPlaceholders() async throws {
        let stub = StubTransport()
        stub.onGraphQL("AttachFiles", reply: .graphQL(data: ["attach": true]))
        _ = try await makeProvider(stub).fetch(AttachFilesMutation(files: [Self.cover, Self.notes], note: "two"))
        let received = try #require(stub.graphQLRequests.first)
        #expect(received.variables == ["files": [nil, nil], "note": "two"])
        #expect(received.map == ["0": ["variables.files.0"], "1": ["variables.files.1"]])
        #expect(received.file(forVariable: "files.0")?.filename == "cover.png")
        #expect(received.file(forVariable: "files.1")?.content == Data("some notes".utf8))
    }

    @Test func anEmptyListOfFilesHasNoUploadsAndIsSentAsJSON() async throws {
        let stub = StubTransport()
        stub.onGraphQL("AttachFiles", reply: .graphQL(data: ["attach": true]))
        let none = AttachFilesMutation(files: [], note: nil)
        #expect(none.uploads.isEmpty)
        _ = try await makeProvider(stub).fetch(none)
        #expect(stub.graphQLRequests.first?.transport == "POST")
        #expect(stub.graphQLRequests.first?.variables == ["files": []])
    }

    @Test func variablesKeepTheirDeclaredNamesWhateverTheProvidersKeyStrategy() async throws {
        let stub = StubTransport()
        stub.onGraphQL("UploadPlaylistCover", reply: .graphQL(data: ["uploadPlaylistCover": ["id": "p1"]]))
        let provider = makeProvider(stub) { config in config.jsonEncoding.keys = .convertToSnakeCase }
        _ = try await provider.fetch(CoverUploadMutation(playlistID: "p1", image: Self.cover))
        #expect(stub.graphQLRequests.first?.variables == ["playlistID": "p1", "image": nil])
    }

    @Test func anUploadPathWithoutANullPlaceholderIsAClearErrorAndSendsNothing() async throws {
        let stub = StubTransport()
        var mutation = CoverUploadMutation(playlistID: "p1", image: Self.cover)
        mutation.extraPath = "playlistID"
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).fetch(mutation)
        }
        #expect(error.kind == .invalidVariables)
        #expect(error.message.contains("\"playlistID\" is not a place that holds null"), "\(error.message)")
        #expect(error.endpoint == "mutation UploadPlaylistCover")
        #expect(stub.requests.isEmpty)
    }
}

// Written as `gateway generate` writes an operation with files (the selections shortened).

struct CoverUploadMutation: GraphQLMutation {
    static let definition = GraphQLOperationDefinition(
        name: "UploadPlaylistCover", kind: .mutation,
        text: "mutation UploadPlaylistCover($playlistID: ID!, $image: Upload!) {\n"
            + "  uploadPlaylistCover(playlistID: $playlistID, image: $image) {\n    id\n  }\n}",
        normalizedText: "mutation UploadPlaylistCover($image:Upload!$playlistID:ID!)"
            + "{uploadPlaylistCover(image:$image playlistID:$playlistID){id}}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    var playlistID: String
    var image: GraphQLUpload
    /// Not generated: a path `uploads` also names, for the test of a wrong path.
    var extraPath: String?

    init(playlistID: String, image: GraphQLUpload) {
        self.playlistID = playlistID
        self.image = image
    }

    var uploads: [String: GraphQLUpload] {
        var uploads: [String: GraphQLUpload] = [:]
        uploads["image"] = self.image
        if let extraPath { uploads[extraPath] = self.image }
        return uploads
    }

    private enum CodingKeys: String, CodingKey { case playlistID, image }

    struct Data: Decodable, Sendable {
        let uploadPlaylistCover: Playlist
        struct Playlist: Decodable, Sendable { let id: String }
    }
}

struct AttachFilesMutation: GraphQLMutation {
    static let definition = GraphQLOperationDefinition(
        name: "AttachFiles", kind: .mutation,
        text: "mutation AttachFiles($files: [Upload!]!, $note: String) {\n  attach(files: $files, note: $note)\n}",
        normalizedText: "mutation AttachFiles($files:[Upload!]!$note:String){attach(files:$files note:$note)}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    var files: [GraphQLUpload]
    var note: String?

    var uploads: [String: GraphQLUpload] {
        var uploads: [String: GraphQLUpload] = [:]
        for (index, file) in self.files.enumerated() {
            uploads["files.\(index)"] = file
        }
        return uploads
    }

    struct Data: Decodable, Sendable { let attach: Bool }
}
