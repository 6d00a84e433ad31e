import Foundation
import Gateway
import GraphQLLanguage

/// The fragments an operation file may use from the other GraphQL files of its folder, as
/// `gateway check` treats a folder as one compilation unit: shared by `query` and `normalize`.
struct FolderFragments {
    /// The fragments of the other files, first definition of a name winning, each with the source
    /// it was parsed from (its ranges point into that source).
    var fragments: [(definition: FragmentDefinition, source: Source)] = []
    /// The names of the other files that do not parse (their fragments are missing).
    var unreadable: [String] = []

    /// Reads the other `.graphql` and `.gql` files of `file`'s folder, skipping fragments whose
    /// names are in `defined` (and adding the ones taken to it).
    init(siblingsOf file: URL, excluding defined: inout Set<String>) {
        let file = file.standardizedFileURL
        let folder = file.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where OperationStore.fileExtensions.contains((name as NSString).pathExtension) {
            let url = folder.appendingPathComponent(name).standardizedFileURL
            guard url.path != file.path,
                  let bytes = try? BoundedFile.contents(of: url.path, limit: Limits.operations.maxBytes)
            else { continue }
            let source = Source(bytes: bytes, name: url.path)
            guard let sibling = try? Parser.parse(source, limits: .operations) else {
                unreadable.append(name)
                continue
            }
            for definition in sibling.definitions {
                guard case .fragment(let fragment) = definition, defined.insert(fragment.name.value).inserted
                else { continue }
                fragments.append((fragment, source))
            }
        }
    }

    /// The names of the fragments a document defines.
    static func names(in document: Document) -> Set<String> {
        Set(document.definitions.compactMap { definition -> String? in
            if case .fragment(let fragment) = definition { return fragment.name.value }
            return nil
        })
    }
}
