import Foundation
import Gateway
@testable import GatewayCLI
@testable import GatewayDemoBackend
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// Every operation of `Queries/` against the example backend's GraphQL endpoint, end to end: a
/// Provider with the real transport, signed in over REST, each answer free of errors and shaped
/// exactly as the operation selects.
@Suite(.quietScheduler) final class DemoGraphQLTests {
    /// Variables for each operation of `Queries/`.
    static let variables: [String: GraphQLVariables] = [
        "GetArtist": ["id": "1"],
        "GetPlaylist": ["id": "p1", "first": 2],
        "GetRelease": ["id": "10"],
        "GetTrack": ["id": "6"],
        "Me": [:],
        "MyCollection": [:],
        "Search": ["text": "l", "kinds": ["TRACK", "ARTIST", "RELEASE"]],
        "CreatePlaylist": ["name": "Road Trip", "description": "for the long drive"],
        "LikeTrack": ["input": ["trackID": "2"]],
        "UploadPlaylistCover": ["playlistID": "p1"],
    ]

    let backend: ExampleBackend
    let provider: Provider

    init() throws {
        backend = try ExampleBackend(schema: try DemoFixture.schema())
        provider = Provider(baseURL: backend.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) { config in
            config.tokens = MemoryTokenStore()
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
            config.jsonDecoding = JSONDecodingOptions(keys: .convertFromSnakeCase)
            config.deadline = .seconds(20)
        }
    }

    deinit { backend.shutdown() }

    private func signIn() async throws {
        let session = try await provider.value(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username, password: ExampleBackend.password))
            .with { $0.requiresAuthentication = false })
        try await #require(provider.tokenCoordinator).save(Credential(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            expiresIn: .seconds(session.expiresIn), subject: session.subject))
    }

    @Test func everyOperationInQueriesHasVariablesInThisSuite() throws {
        #expect(Set(try DemoFixture.operations().names) == Set(Self.variables.keys))
    }

    @Test(arguments: variables.keys.sorted())
    func eachOperationIsAnsweredWithoutErrorsInTheShapeItSelects(name: String) async throws {
        try await signIn()
        let operations = try DemoFixture.operations()
        let operation = try operations.operation(named: name)
        let uploads: [String: GraphQLUpload] = name == "UploadPlaylistCover"
            ? ["image": .data(DemoScript.coverImage(width: 64, height: 48), filename: "c.png",
                              contentType: "image/png")]
            : [:]
        let response = try await provider.fetch(operation, variables: try #require(Self.variables[name]),
                                                uploads: uploads, as: JSONValue.self)
        #expect(response.status == 200)
        #expect(response.errors.isEmpty, "\(response.errors)")
        let document = try Parser.parse(Source(operation.text))
        var check = DemoShapeCheck(schema: try DemoFixture.schema(), document: document)
        let root = operation.kind == .mutation ? "Mutation" : "Query"
        check.check(response.data, selections: operation.selection.operation.selectionSet.selections, type: root,
                    path: "data")
        #expect(check.problems.isEmpty, "\(check.problems)\n\(response.data.serialized(.pretty))")
        #expect(response.data.objectValue?.isEmpty == false)
    }

    @Test func theAnswersCarryTheCatalogsValues() async throws {
        try await signIn()
        let operations = try DemoFixture.operations()
        let track = try await provider.fetch(operations["GetTrack"], variables: ["id": "6"], as: JSONValue.self).data
        #expect(track["track"]?["title"] == "Signal")
        #expect(track["track"]?["artists"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                == ["Northbound Static", "The Lumens"])
        #expect(track["track"]?["isLiked"] == true)
        #expect(track["track"]?["release"]?["cover"] == .null)
        let artist = try await provider.fetch(operations["GetArtist"], variables: ["id": "1", "topTracks": 2],
                                              as: JSONValue.self).data
        #expect(artist["artist"]?["topTracks"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
                == ["Night Drive", "Streetlight Hymn"])
        #expect(artist["artist"]?["releases"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["12", "10"])
        let singles = try await provider.fetch(operations["GetArtist"], variables: ["id": "1", "releaseKind": "SINGLE"],
                                               as: JSONValue.self).data
        #expect(singles["artist"]?["releases"]?.arrayValue?.count == 1)
        let page = try await provider.fetch(operations["GetPlaylist"], variables: ["id": "p1", "first": 2],
                                            as: JSONValue.self).data
        #expect(page["playlist"]?["tracks"]?["totalCount"] == 3)
        #expect(page["playlist"]?["tracks"]?["pageInfo"]?["hasNextPage"] == true)
        let cursor = try #require(page["playlist"]?["tracks"]?["pageInfo"]?["endCursor"]?.stringValue)
        let rest = try await provider.fetch(operations["GetPlaylist"],
                                            variables: ["id": "p1", "after": .string(cursor)],
                                            as: JSONValue.self).data
        #expect(rest["playlist"]?["tracks"]?["edges"]?.arrayValue?.compactMap { $0["node"]?["id"]?.stringValue }
                == ["5"])
        #expect(rest["playlist"]?["tracks"]?["pageInfo"]?["hasNextPage"] == false)
    }

    @Test func mutationsChangeWhatLaterQueriesSee() async throws {
        try await signIn()
        let operations = try DemoFixture.operations()
        let before = try await provider.fetch(operations["MyCollection"], as: JSONValue.self).data
        #expect(before["me"]?["collection"]?["likedTracks"]?["totalCount"] == 2)
        let liked = try await provider.fetch(operations["LikeTrack"], variables: ["input": ["trackID": "3"]],
                                             as: JSONValue.self).data
        #expect(liked["likeTrack"]?["likedCount"] == 3)
        #expect(liked["likeTrack"]?["track"]?["__typename"] == "Track")
        let again = try await provider.fetch(operations["LikeTrack"], variables: ["input": ["trackID": "3"]],
                                             as: JSONValue.self).data
        #expect(again["likeTrack"]?["likedCount"] == 3, "liking twice changes nothing")
        let made = try await provider.fetch(operations["CreatePlaylist"], variables: ["name": "Gym"],
                                            as: JSONValue.self).data
        #expect(made["createPlaylist"]?["isPublic"] == false, "the variable's default applies")
        let id = try #require(made["createPlaylist"]?["id"]?.stringValue)
        let cover = try await provider.fetch(
            operations["UploadPlaylistCover"], variables: ["playlistID": .string(id)],
            uploads: ["image": .data(DemoScript.coverImage(width: 320, height: 200), filename: "gym.png")],
            as: JSONValue.self).data
        #expect(cover["uploadPlaylistCover"]?["cover"]?["width"] == 320)
        #expect(cover["uploadPlaylistCover"]?["cover"]?["height"] == 200)
        let after = try await provider.fetch(operations["MyCollection"], as: JSONValue.self).data
        #expect(after["me"]?["collection"]?["likedTracks"]?["totalCount"] == 3)
        #expect(after["me"]?["collection"]?["playlists"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                == ["Late Night", "Gym"])
    }

    @Test func anUploadThatIsNotAPNGIsABadUserInputError() async throws {
        try await signIn()
        let error = try await #require(throws: GatewayError.self) {
            try await self.provider.fetch(
                try DemoFixture.operations()["UploadPlaylistCover"], variables: ["playlistID": "p1"],
                uploads: ["image": .data(Data("not a picture".utf8), filename: "notes.txt")], as: JSONValue.self)
        }
        #expect(error.kind == .graphQLErrors)
        let first = try #require(error.graphQLErrors.first)
        #expect(first.code == "BAD_USER_INPUT")
        #expect(first.message.contains("PNG"))
        #expect(first.path == [.key("uploadPlaylistCover")])
        #expect(first.locations == [GraphQLError.Location(line: 2, column: 3)])
    }
}
