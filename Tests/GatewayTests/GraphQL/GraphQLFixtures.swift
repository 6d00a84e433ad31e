import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage

/// The example API's files, found from this file's place in the package.
enum GraphQLFixtures {
    static let root = QueryFileChecks.packageRoot(containing: #filePath)
    static let queries = root.appendingPathComponent("Queries")
    static let schemaFile = root.appendingPathComponent("Schemas/music.graphql")

    /// The schema of the example API.
    static func schema() throws -> Schema { try OperationStore.schema(at: schemaFile) }

    /// The operations of `Queries/`, validated against the schema.
    static func store() throws -> OperationStore { try OperationStore(directory: queries, schema: schema()) }

    /// The operation names, for parameterized tests (empty when the store does not load, which
    /// `OperationStoreTests` reports).
    static let operationNames: [String] = (try? store().names) ?? []

    /// Variables that fit each operation of `Queries/`, and the files it uploads.
    static func variables(for name: String) -> (GraphQLVariables, [String: GraphQLUpload]) {
        switch name {
        case "GetTrack", "GetRelease", "GetPlaylist": (["id": "t1"], [:])
        case "GetArtist": (["id": "a1", "releaseKind": "ALBUM"], [:])
        case "Search": (["text": "night", "kinds": ["TRACK", "RELEASE"]], [:])
        case "LikeTrack": (["input": ["trackID": "t1"]], [:])
        case "CreatePlaylist": (["name": "Morning", "isPublic": true], [:])
        case "UploadPlaylistCover":
            (["playlistID": "p1"], ["image": .data(Data([0x89, 0x50, 0x4E, 0x47, 0, 13, 10]), filename: "cover.png",
                                                   contentType: "image/png")])
        default: ([:], [:])
        }
    }

    /// A temporary folder holding `files` (name → text), removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }
}
