import Foundation
import GatewayCodegen
import GraphQLLanguage
import GatewayTestSupport
import Testing

/// How generated types and their files are named when the operations do not name them, or name
/// them alike: anonymous operations (each file is its own document), names that differ only by
/// case, and fragments repeated in several files.
@Suite(.offPool) struct GeneratedNamingTests {
    /// Generates from files given as (path, text).
    func generate(_ files: [(String, String)]) throws -> CodegenResult {
        CodeGenerator(schema: try CodegenFixtures.musicSchema()).generate(files.map { Source($0.1, name: $0.0) })
    }

    @Test func anonymousOperationIsNamedAfterItsFileWithAWarningAtItsPlace() throws {
        let result = try generate([("Queries/01_basic_query.graphql", "\n{ me { id } }\n")])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.files.map(\.name) == ["BasicQuery01Query.swift"])
        let file = try #require(result.files.first)
        #expect(file.contents.contains("public struct BasicQuery01Query: GraphQLQuery {"))
        #expect(file.contents.contains("/// The anonymous query of `01_basic_query.graphql`"))
        #expect(file.contents.contains("        name: nil,\n"), "an anonymous operation is sent without a name")
        let warning = try #require(result.warnings.first)
        #expect(result.warnings.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.rendered().hasPrefix(
            "Queries/01_basic_query.graphql:2:1: warning: This anonymous query becomes the Swift type "
                + "BasicQuery01Query, named after its file; name the operation (query BasicQuery01 { … }) "
                + "to choose its type's name."))
    }

    @Test(arguments: [
        ("01_basic_query.graphql", "BasicQuery01Query"),
        ("getUser.graphql", "GetUserQuery"),
        ("get-user.v2.graphql", "GetUserV2Query"),
        ("3d_view.gql", "View3dQuery"),
        ("me_query.graphql", "MeQuery"),
        ("2024.graphql", "Anonymous2024Query"),
        ("___.graphql", "AnonymousQuery"),
        ("caf\u{E9} au lait.graphql", "CafAuLaitQuery"),
    ])
    func anonymousTypeNameIsAnIdentifierMadeFromTheFileName(file: String, type: String) throws {
        let result = try generate([("Queries/" + file, "{ me { id } }")])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.files.map(\.name) == [type + ".swift"])
    }

    @Test func anonymousOperationsMustBeAloneInTheirFileNotInTheFolder() throws {
        let alone = try generate([("a.graphql", "{ me { id } }"), ("b.graphql", "{ me { displayName } }")])
        #expect(alone.diagnostics.isEmpty, "\(alone.diagnostics)")
        #expect(alone.files.map(\.name) == ["AQuery.swift", "BQuery.swift"])

        let shared = try generate([
            ("a.graphql", "{ me { id } }"), ("b.graphql", "query Me { me { id } }\n{ me { id } }"),
        ])
        #expect(shared.files.isEmpty)
        let error = try #require(shared.diagnostics.first)
        #expect(shared.diagnostics.count == 1, "\(shared.diagnostics)")
        #expect(error.rendered().hasPrefix(
            "b.graphql:2:1: error: This anonymous operation must be the only defined operation. "
                + "[LoneAnonymousOperationRule]"))
    }

    @Test func anonymousOperationsWhoseFilesGiveOneNameGetNumbersInPathOrder() throws {
        let files = [
            ("b/me.graphql", "{ me { displayName } }"), ("a/me.graphql", "{ me { id } }"),
            ("c.graphql", "query Me { me { country } }"),
        ]
        let result = try generate(files)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.files.map(\.name) == ["MeQuery.swift", "MeQuery2.swift", "MeQuery3.swift"])
        let byName = Dictionary(uniqueKeysWithValues: result.files.map { ($0.name, $0.contents) })
        #expect(byName["MeQuery.swift"]?.contains("country") == true, "the named operation keeps its name")
        #expect(byName["MeQuery2.swift"]?.contains("public let id: String") == true, "a/me.graphql comes first")
        #expect(byName["MeQuery3.swift"]?.contains("displayName") == true)
        #expect(try generate(files.reversed()).files == result.files)
        #expect(result.warnings.map(\.locations.first?.source?.name) == ["a/me.graphql", "b/me.graphql"])
    }

    @Test func typesWhoseNamesDifferOnlyByCaseGetFilesWhoseNamesDoNot() throws {
        let files = [("b.graphql", "query getme { me { id } }"), ("a.graphql", "query getMe { me { id } }")]
        let result = try generate(files)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.files.map(\.name) == ["GetMeQuery.swift", "GetmeQuery2.swift"])
        #expect(Set(result.files.map { $0.name.lowercased() }).count == 2)
        #expect(result.files.last?.contents.contains("public struct GetmeQuery: GraphQLQuery {") == true,
                "the type keeps its name; only its file is numbered")
        #expect(try generate(files.reversed()).files == result.files)
    }

    @Test func typesWithTheSameSwiftNameAreRefused() throws {
        let result = try generate([
            ("a.graphql", "query me { me { ...meQuery } }\nfragment meQuery on Listener { id }"),
        ])
        #expect(result.files.isEmpty)
        let message = try #require(result.diagnostics.first?.message)
        #expect(message == "The Swift type MeQuery for the query me would have the same name as the type for the "
                + "fragment meQuery; rename one of them.")
    }

    @Test func aFragmentDefinedAlikeInSeveralFilesBecomesOneType() throws {
        let fragment = "fragment Who on Listener {\n  id\n  displayName\n}"
        let result = try generate([
            ("a.graphql", "query A { me { ...Who } }\n" + fragment),
            ("b.graphql", "query B { me { ...Who } }\nfragment Who on Listener { id displayName }"),
        ])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.files.map(\.name) == ["AQuery.swift", "BQuery.swift", "Who.swift"])
        #expect(result.files.last?.contents.contains("of `a.graphql`") == true)

        let different = try generate([
            ("a.graphql", "query A { me { ...Who } }\n" + fragment),
            ("b.graphql", "query B { me { ...Who } }\nfragment Who on Listener { id }"),
        ])
        #expect(different.files.isEmpty)
        #expect(different.diagnostics.contains { $0.message.contains("There can be only one fragment named \"Who\"") },
                "\(different.diagnostics)")
    }
}
