import Foundation
import Gateway
import MusicOperations

/// The operations `gateway demo` sends: Swift types generated from `Queries/` by `gateway
/// generate` (the `MusicOperations` target, compiled into the command), and the check of a
/// folder of operations against them.
enum DemoOperations {
    /// Every operation type the script sends.
    static let types: [any GraphQLOperationType.Type] = [
        MeQuery.self, GetTrackQuery.self, SearchQuery.self, MyCollectionQuery.self, GetArtistQuery.self,
        GetReleaseQuery.self, GetPlaylistQuery.self, LikeTrackMutation.self, CreatePlaylistMutation.self,
        UploadPlaylistCoverMutation.self,
    ]

    /// Where the generated types live in the package, and how they are made again.
    static let generatedFolder = "Tests/MusicOperations"

    /// The operations of `store` that the generated types no longer match, one phrase each
    /// (`GetTrack (changed)`, `Search (missing)`): empty when the types are what the generator
    /// makes of the folder today.
    static func differences(from store: OperationStore) -> [String] {
        types.compactMap { type in
            let definition = type.definition
            // Every operation of Queries/ is named; an anonymous one could not be looked up by name.
            let name = definition.name ?? "anonymous \(definition.kind)"
            guard let named = definition.name, store.contains(named), let loaded = try? store.operation(named: named)
            else {
                return "\(name) (missing)"
            }
            return loaded.normalizedText == definition.normalizedText ? nil : "\(name) (changed)"
        }
    }

    /// The warning for `differences` found in `queries` (checked against `schema`), or `nil`
    /// when there are none.
    static func warning(_ differences: [String], queries: URL, schema: URL) -> String? {
        guard !differences.isEmpty else { return nil }
        return "the operations in \(queries.path) differ from the generated types the demo was built with "
            + "(\(generatedFolder)): \(differences.joined(separator: ", ")). The demo sends the types it was "
            + "built with; to send these operations, regenerate the types (swift run gateway generate --output "
            + "\(generatedFolder) --schema \(DemoSetup.shellQuoted(schema.path)) "
            + "\(DemoSetup.shellQuoted(queries.path))) and run the demo again."
    }
}
