import Foundation
import Gateway
@testable import GatewayCLI
@testable import GatewayDemoBackend
import GatewayTestSupport
import GatewayTesting
import MusicOperations
import Testing

/// The types generated from `Queries/` (checked in as `MusicOperations`, kept fresh by
/// `GeneratedDecodingTests`) fetched from real GraphQL servers on 127.0.0.1, with the real
/// transport: the example backend and a server nobody here wrote (ariadne).
@Suite(.quietScheduler) final class GeneratedOperationsEndToEndTests {
    let backend: ExampleBackend
    let tokens = MemoryTokenStore()
    let provider: Provider

    init() throws {
        backend = try ExampleBackend(schema: try DemoFixture.schema())
        provider = Provider(baseURL: backend.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) { [tokens] config in
            config.tokens = tokens
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
            config.jsonDecoding = JSONDecodingOptions(keys: .convertFromSnakeCase)
            config.deadline = .seconds(20)
        }
    }

    deinit { backend.shutdown() }

    private func signIn() async throws {
        let session = try await provider.value(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username, password: ExampleBackend.password))
            .withoutAuthentication())
        try await #require(provider.tokenCoordinator).save(Credential(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            expiresIn: .seconds(session.expiresIn), subject: session.subject))
    }

    @Test func aGeneratedQueryReturnsTypedDataFromTheExampleBackend() async throws {
        try await signIn()
        let response = try await provider.fetch(GetTrackQuery(id: "6"))
        let track = try #require(response.data.track)
        #expect(track.trackSummary.id == "6")
        #expect(!track.trackSummary.title.isEmpty)
        #expect(!track.trackSummary.artists.isEmpty)
        #expect(response.errors.isEmpty)
    }

    @Test func aUnionIsReadThroughItsTypedAccessors() async throws {
        try await signIn()
        let response = try await provider.fetch(SearchQuery(text: "l", kinds: [.track, .artist, .release]))
        let results = response.data.search
        #expect(!results.isEmpty)
        for result in results {
            let typed = [result.asTrack != nil, result.asArtist != nil, result.asRelease != nil]
            #expect(typed.filter { $0 }.count == 1, "each result is exactly one of its possible types")
        }
    }

    @Test func aGeneratedMutationSendsItsTypedVariables() async throws {
        try await signIn()
        let response = try await provider.fetch(CreatePlaylistMutation(name: "Road Trip", description: "for the long drive"))
        #expect(response.data.createPlaylist.name == "Road Trip")
        #expect(response.data.createPlaylist.isPublic == false, "the declared default of $isPublic")
    }

    @Test func aGeneratedMutationUploadsItsFileAsAMultipartRequest() async throws {
        try await signIn()
        let image = GraphQLUpload.data(DemoScript.coverImage(width: 64, height: 32), filename: "cover.png",
                                       contentType: "image/png")
        let response = try await provider.fetch(UploadPlaylistCoverMutation(playlistID: "p1", image: image))
        #expect(response.errors.isEmpty)
        #expect(response.data.uploadPlaylistCover.id == "p1")
        let cover = try #require(response.data.uploadPlaylistCover.cover)
        #expect(cover.width == 64 && cover.height == 32, "the backend read the size from the file it received")
        let sent = try #require(response.request)
        #expect(sent.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
    }

    @Test func aSecondFetchOfAGeneratedQueryIsAnsweredFromTheCache() async throws {
        try await signIn()
        let cached = Provider(baseURL: backend.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) { [tokens] config in
            config.tokens = tokens
            config.cache = ResponseCache(store: MemoryCacheStore(), defaultPolicy: .cacheFirst)
        }
        let first = try await cached.fetch(MeQuery())
        let second = try await cached.fetch(MeQuery())
        #expect(first.cacheOutcome == .miss)
        #expect(second.cacheOutcome == .hit)
        #expect(second.data.me.id == first.data.me.id)
    }
}

/// The same generated types against ariadne (graphql-core), which serves `Schemas/music.graphql`.
@Suite(.requires(.ariadne) { try await AriadnePeer.isRunning() })
struct GeneratedOperationsAgainstAriadneTests {
    @Test func aGeneratedQueryReturnsTypedDataFromAriadne() async throws {
        let peer = try #require(try await AriadnePeer.shared.value)
        let provider = Provider(baseURL: try #require(URL(string: peer.baseURL + "/")),
                                transport: URLSessionTransport(timeout: .seconds(10))) { config in
            config.graphQL.path = "graphql/"
        }
        let response = try await provider.fetch(GetTrackQuery(id: "t1"))
        let track = try #require(response.data.track)
        #expect(track.trackSummary.title == "First Light")
        #expect(track.trackSummary.duration == 201000)
        #expect(track.genres == [.rock])
        #expect(track.trackSummary.artists.map(\.artistSummary.name) == ["The Lanterns"])
    }
}
