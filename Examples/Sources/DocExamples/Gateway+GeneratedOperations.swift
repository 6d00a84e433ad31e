// The examples of generated operation types (GraphQLOperationType and what sends it).
import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage

/// A generated query, as `gateway generate` writes it for `Queries/GetTrack.graphql`
/// (shortened), storing its own operation.
public struct GetTrackQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "GetTrack", kind: .query,
        text: "query GetTrack($id: ID!) {\n  track(id: $id) {\n    __typename\n    id\n    title\n  }\n}",
        normalizedText: "query GetTrack($id:ID!){track(id:$id){id title}}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    public static let operation = GraphQLOperation(definition: definition)
    public var id: String
    public init(id: String) { self.id = id }
    public struct Data: Decodable, Sendable {
        public let track: Track?
        public struct Track: Decodable, Sendable { public let title: String }
    }
}

/// A generated mutation with an input object.
struct LikeTrackMutation: GraphQLMutation {
    public static let definition = GraphQLOperationDefinition(
        name: "LikeTrack", kind: .mutation,
        text: "mutation LikeTrack($input: LikeTrackInput!) {\n  likeTrack(input: $input) {\n    likedCount\n  }\n}",
        normalizedText: "mutation LikeTrack($input:LikeTrackInput!){likeTrack(input:$input){likedCount}}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    var input: LikeTrackInput
    public struct Data: Decodable, Sendable {
        public let likeTrack: LikeTrack
        public struct LikeTrack: Decodable, Sendable { public let likedCount: Int }
    }
}

/// A generated mutation with a file, as `gateway generate` writes it for
/// `Queries/UploadPlaylistCover.graphql` (shortened).
public struct UploadPlaylistCoverMutation: GraphQLMutation {
    public static let definition = GraphQLOperationDefinition(
        name: "UploadPlaylistCover", kind: .mutation,
        text: "mutation UploadPlaylistCover($playlistID: ID!, $image: Upload!) {\n"
            + "  uploadPlaylistCover(playlistID: $playlistID, image: $image) {\n    id\n  }\n}",
        normalizedText: "mutation UploadPlaylistCover($image:Upload!$playlistID:ID!)"
            + "{uploadPlaylistCover(image:$image playlistID:$playlistID){id}}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    public var playlistID: String
    public var image: GraphQLUpload
    public init(playlistID: String, image: GraphQLUpload) {
        self.playlistID = playlistID
        self.image = image
    }
    // GraphQLOperationType.uploads
    public var uploads: [String: GraphQLUpload] {
        var uploads: [String: GraphQLUpload] = [:]
        uploads["image"] = self.image
        return uploads
    }
    public struct Data: Decodable, Sendable {
        public let uploadPlaylistCover: Playlist
        public struct Playlist: Decodable, Sendable { public let id: String }
    }
}

// GraphQLUpload.encode(to:)
func graphQLUploadEncodesAsNull() throws {
    let cover = GraphQLUpload.data(Data([0x89, 0x50]), filename: "cover.png", contentType: "image/png")
    let variables = try GraphQLVariables(encoding: ["image": cover])
    print(variables["image"] == .null)   // true
}

// GraphQLOperationType
public struct TrackTitleQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "TrackTitle", kind: .query,
        text: "query TrackTitle($id: ID!) {\n  track(id: $id) {\n    title\n  }\n}",
        normalizedText: "query TrackTitle($id:ID!){track(id:$id){title}}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    public var id: String
    public init(id: String) { self.id = id }
    public struct Data: Decodable, Sendable {
        public let track: Track?
        public struct Track: Decodable, Sendable { public let title: String }
    }
}

func generatedOperationType(provider: Provider) async throws {
    let track = try await provider.fetch(TrackTitleQuery(id: "42"))
    print(track.data.track?.title ?? "no such track")
}

// GraphQLOperationType.operation
func generatedOperationOfAType() {
    let operation = GetTrackQuery.operation
    print(operation.name ?? "", operation.kind)   // GetTrack query
}

// GraphQLQuery
func generatedQuery(provider: Provider) async throws {
    let track = try await provider.fetch(GetTrackQuery(id: "42"), cachePolicy: .cacheFirst)
    _ = track
}

// GraphQLMutation
func generatedMutation(provider: Provider) async throws {
    var options = GraphQLRequestOptions()
    options.idempotencyKey = "like-42"   // makes the mutation safe to retry
    let liked = try await provider.fetch(LikeTrackMutation(input: LikeTrackInput(trackID: "42")),
                                         options: options)
    _ = liked
}

// GraphQLOperationDefinition
func generatedDefinition() {
    let definition = GetTrackQuery.definition
    print(definition.name ?? "anonymous", definition.kind, definition.textHash)
}

// GraphQLOperationDefinition.init
func generatedDefinitionInit() {
    let definition = GraphQLOperationDefinition(
        name: "Ping", kind: .query, text: "query Ping {\n  ping\n}", normalizedText: "query Ping{ping}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    _ = definition
}

// GraphQLOperation(definition:)
func graphQLOperationFromDefinition() {
    let getTrack = GraphQLOperation(definition: GetTrackQuery.definition)
    print(getTrack)   // query GetTrack
}

// GraphQLRequest(_:options:settings:encoding:)
func graphQLRequestOfGeneratedOperation(provider: Provider) async throws {
    let request = try GraphQLRequest(GetTrackQuery(id: "42"))
    let track = try await provider.send(request)   // GraphQLResponse<GetTrackQuery.Data>
    _ = track
}

// Provider.fetch(_:options:)
func fetchGeneratedOperation(provider: Provider) async throws {
    let track = try await provider.fetch(GetTrackQuery(id: "42"))
    print(track.data.track?.title ?? "no such track", track.errors)
}

// Provider.fetch(_:cachePolicy:options:)
func fetchGeneratedOperationWithCachePolicy(provider: Provider) async throws {
    let track = try await provider.fetch(GetTrackQuery(id: "42"), cachePolicy: .cacheFirst)
    print(track.cacheOutcome)   // .hit when a fresh entry answered
}

// Provider.watch(_:options:)
func watchGeneratedQuery(provider: Provider) async throws {
    for try await track in provider.watch(GetTrackQuery(id: "42")) {
        print(track.data.track?.title ?? "no such track", track.cacheOutcome)
    }
}

// Provider.task(_:options:)
func taskOfGeneratedOperation(provider: Provider) async throws {
    let running = provider.task(GetTrackQuery(id: "42"))
    let track = try await running.value   // GraphQLResponse<GetTrackQuery.Data>
    _ = track
}

// StubMatcher.graphQL(_:variables:path:) for a generated type
func stubGeneratedOperation(stub: StubTransport) {
    stub.on(.graphQL(GetTrackQuery.self, variables: ["id": "42"]),
            reply: [.graphQL(data: ["track": ["__typename": "Track", "id": "42", "title": "One"]])])
}

// StubTransport.onGraphQL(_:variables:reply:) for a generated type
func stubGeneratedOperationShortly() {
    let stub = StubTransport()
    stub.onGraphQL(GetTrackQuery.self, variables: ["id": "42"],
                   reply: .graphQL(data: ["track": ["__typename": "Track", "id": "42", "title": "One"]]))
}
