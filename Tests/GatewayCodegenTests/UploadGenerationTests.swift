import Foundation
import GatewayCodegen
import GraphQLLanguage
import GatewayTestSupport
import Testing

/// Variables of the `Upload` scalar: `GraphQLUpload` properties and an `uploads` property naming
/// each file's variable path, or a refusal at the variable for what generated code cannot send.
@Suite(.offPool) struct UploadGenerationTests {
    static let sdl = """
        scalar Upload
        input PostInput { title: String!, cover: Upload }
        input WrapInput { note: String, post: PostInput }
        type Query { lastUpload(tag: String): Upload }
        type Mutation {
          attach(files: [Upload!]!, more: [[Upload]], one: Upload): Boolean
          post(input: PostInput!): Boolean
          wrap(input: WrapInput): Boolean
        }
        """

    static func generate(_ text: String, name: String = "Queries/Op.graphql",
                         configuration: CodegenConfiguration = CodegenConfiguration()) throws -> CodegenResult {
        CodeGenerator(schema: try CodegenFixtures.schema(sdl), configuration: configuration)
            .generate([Source(text, name: name)])
    }

    @Test func theMusicUploadVariableIsAGraphQLUploadListedInUploads() throws {
        let files = try CodegenFixtures.musicFiles()
        let file = try #require(files.first { $0.name == "UploadPlaylistCoverMutation.swift" })
        #expect(file.contents.contains("    public var image: GraphQLUpload\n"))
        #expect(file.contents.contains("public init(playlistID: String, image: GraphQLUpload) {"))
        #expect(file.contents.contains("""
                /// The files of `$image`, sent by the GraphQL multipart request specification.
                public var uploads: [String: GraphQLUpload] {
                    var uploads: [String: GraphQLUpload] = [:]
                    uploads["image"] = self.image
                    return uploads
                }
            """))
        let others = files.filter { $0.name != "UploadPlaylistCoverMutation.swift" }
        #expect(!others.contains { $0.contents.contains("uploads") }, "only an operation with files lists them")
    }

    @Test func listsOfFilesAreListedByIndexAndNilFilesAreLeftOut() throws {
        let result = try Self.generate("""
            mutation Attach($files: [Upload!]!, $more: [[Upload]], $one: Upload) {
              attach(files: $files, more: $more, one: $one)
            }
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let file = try #require(result.files.first { $0.name == "AttachMutation.swift" })
        #expect(file.contents.contains("public var files: [GraphQLUpload]\n"))
        #expect(file.contents.contains("public var more: [[GraphQLUpload?]?]?\n"))
        #expect(file.contents.contains("public var one: GraphQLUpload?\n"))
        #expect(file.contents.contains(#"""
                /// The files of `$files`, `$more` and `$one`, sent by the GraphQL multipart request specification.
                public var uploads: [String: GraphQLUpload] {
                    var uploads: [String: GraphQLUpload] = [:]
                    for (index, file) in self.files.enumerated() {
                        uploads["files.\(index)"] = file
                    }
                    for (index, files) in (self.more ?? []).enumerated() {
                        for (index2, file2) in (files ?? []).enumerated() {
                            uploads["more.\(index).\(index2)"] = file2
                        }
                    }
                    uploads["one"] = self.one
                    return uploads
                }
            """#))
    }

    @Test func anUploadInAResponseStaysAString() throws {
        let result = try Self.generate("query Last { lastUpload }")
        let file = try #require(result.files.first { $0.name == "LastQuery.swift" })
        #expect(file.contents.contains("public let lastUpload: String?"))
        #expect(!file.contents.contains("uploads"))
    }

    @Test func aScalarMappedInTheConfigurationKeepsItsMapping() throws {
        let result = try Self.generate("mutation Attach($one: Upload) { attach(files: [], one: $one) }",
                                       configuration: CodegenConfiguration(scalars: ["Upload": "String"]))
        let file = try #require(result.files.first { $0.name == "AttachMutation.swift" })
        #expect(file.contents.contains("public var one: String?\n"))
        #expect(!file.contents.contains("uploads"))
    }

    @Test func aFileInsideAnInputObjectIsRefusedAtTheVariable() throws {
        let direct = try Self.generate("mutation Post($input: PostInput!) { post(input: $input) }")
        #expect(direct.files.isEmpty)
        let message = try #require(direct.diagnostics.first).rendered()
        #expect(message.hasPrefix("Queries/Op.graphql:1:15: error: $input holds a file inside an input object "
                                  + "(PostInput.cover), which generated operations cannot send"), "\(message)")
        #expect(message.contains("provider.fetch(_:variables:uploads:as:)"))

        let nested = try Self.generate("mutation Wrap(\n  $input: WrapInput\n) { wrap(input: $input) }")
        #expect(nested.diagnostics.first?.rendered().hasPrefix(
            "Queries/Op.graphql:2:3: error: $input holds a file inside an input object "
                + "(WrapInput.post → PostInput.cover)") == true, "\(nested.diagnostics)")
    }

    @Test func aVariableNamedUploadsBesideFilesIsRefused() throws {
        let result = try Self.generate("mutation Attach($files: [Upload!]!, $uploads: Upload) { "
                                       + "attach(files: $files, one: $uploads) }")
        #expect(result.files.isEmpty)
        #expect(result.diagnostics.first?.message.contains("The variable $uploads would clash with the uploads "
                                                           + "property") == true, "\(result.diagnostics)")
    }

    @Test(.enabled(if: SwiftTypecheck.isAvailable, "no swiftc on PATH, or no built Gateway module under .build"))
    func generatedUploadsTypecheck() async throws {
        let result = try Self.generate("""
            mutation Attach($files: [Upload!]!, $more: [[Upload]], $one: Upload, $self: Upload) {
              attach(files: $files, more: $more, one: $one)
              again: attach(files: [], one: $self)
            }
            query Last($uploads: String) { lastUpload(tag: $uploads) }
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let problems = try await SwiftTypecheck.problems(in: result.files)
        #expect(problems == nil, "\(problems ?? "")")
    }
}
