import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Every document, SDL schema and malformed file of the shared corpus parses, or fails, exactly as
/// graphql-core 3.2.8 does according to `manifest.json`.
@Suite(.enabled(if: Corpus.isAvailable, "the shared corpus is not next to the package"), .offPool)
struct CorpusConformanceTests {
    @Test(arguments: Corpus.documents)
    func documentParsesOrFailsAsTheManifestSays(_ entry: Corpus.DocumentEntry) throws {
        let source = Source(bytes: try Corpus.bytes(entry.path), name: entry.path)
        do {
            let document = try Parser.parse(source, limits: .operations)
            #expect(entry.parse.ok, "parsed, but the manifest expects \(String(describing: entry.parse.error))")
            if let operations = entry.operations {
                let parsed = document.definitions.compactMap { definition -> Corpus.OperationEntry? in
                    guard case .operation(let operation) = definition else { return nil }
                    return Corpus.OperationEntry(type: operation.operation.rawValue, name: operation.name?.value)
                }
                #expect(parsed == operations)
            }
            if let fragments = entry.fragments {
                let parsed = document.definitions.compactMap { definition -> String? in
                    guard case .fragment(let fragment) = definition else { return nil }
                    return fragment.name.value
                }
                #expect(parsed == fragments)
            }
        } catch {
            let expected = try #require(entry.parse.error, "failed with \(error), but the manifest expects success")
            expectSameError(error, message: expected.message, location: expected.locations.first)
        }
    }

    @Test(arguments: Corpus.sdlSchemas)
    func schemaParsesAsTheManifestSays(_ entry: Corpus.SchemaEntry) throws {
        let path = try #require(entry.path)
        let document = try Parser.parse(Source(bytes: try Corpus.bytes(path), name: path), limits: .schemas)
        #expect(entry.parse?.ok == true)
        if let count = entry.parse?.definitions { #expect(document.definitions.count == count) }
        if let kinds = entry.parse?.definition_kinds { #expect(Self.kindCounts(document) == kinds) }
    }

    @Test(arguments: Corpus.malformed)
    func malformedFileFailsWhereTheManifestSays(_ entry: Corpus.MalformedEntry) throws {
        let source = Source(bytes: try Corpus.bytes(entry.path), name: entry.path)
        do {
            _ = try Parser.parse(source, limits: .operations)
            Issue.record("\(entry.path) parsed, but the manifest expects \(entry.message)")
        } catch {
            expectSameError(error, message: entry.message, location: entry.locations.first)
        }
    }

    /// Compares messages with graphql-core's single quotes and graphql-js's double quotes treated alike.
    private func expectSameError(_ error: GraphQLSyntaxError, message: String, location: Corpus.Location?) {
        func unquoted(_ text: String) -> String { text.replacingOccurrences(of: "\"", with: "'") }
        #expect(unquoted(error.message) == unquoted(message))
        #expect(error.location.line == location?.line)
        #expect(error.location.column == location?.column)
        #expect(error.limit == nil)
    }

    /// Definition counts named as graphql-core names its node classes.
    private static func kindCounts(_ document: Document) -> [String: Int] {
        var counts: [String: Int] = [:]
        for definition in document.definitions {
            let kind: String
            switch definition {
            case .operation: kind = "OperationDefinitionNode"
            case .fragment: kind = "FragmentDefinitionNode"
            case .schema: kind = "SchemaDefinitionNode"
            case .schemaExtension: kind = "SchemaExtensionNode"
            case .directive: kind = "DirectiveDefinitionNode"
            case .type(let type):
                switch type {
                case .scalar: kind = "ScalarTypeDefinitionNode"
                case .object: kind = "ObjectTypeDefinitionNode"
                case .interface: kind = "InterfaceTypeDefinitionNode"
                case .union: kind = "UnionTypeDefinitionNode"
                case .enum: kind = "EnumTypeDefinitionNode"
                case .inputObject: kind = "InputObjectTypeDefinitionNode"
                }
            case .typeExtension(let type):
                switch type {
                case .scalar: kind = "ScalarTypeExtensionNode"
                case .object: kind = "ObjectTypeExtensionNode"
                case .interface: kind = "InterfaceTypeExtensionNode"
                case .union: kind = "UnionTypeExtensionNode"
                case .enum: kind = "EnumTypeExtensionNode"
                case .inputObject: kind = "InputObjectTypeExtensionNode"
                }
            }
            counts[kind, default: 0] += 1
        }
        return counts
    }
}
