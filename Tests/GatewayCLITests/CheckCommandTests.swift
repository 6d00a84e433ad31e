import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// `gateway check`, run through the dispatcher as the `gateway` executable runs it. The tests write
/// fixture files and build schemas: the suite runs off the cooperative pool.
@Suite(.offPool) struct CheckCommandTests {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func check(_ arguments: [String], in directory: URL = packageRoot) async -> Run {
        let sink = CapturedOutput()
        let output = sink.output(currentDirectory: directory)
        let status = await Dispatcher.standard.run(["check"] + arguments, output: output)
        return Run(status: status, stdout: sink.stdout, stderr: sink.stderr)
    }

    /// A fresh folder holding `files` (relative path → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    static let petSchema = """
        type Query { pet(id: ID!): Pet, pets: [Pet!]! }
        type Pet { id: ID!, name: String!, owner: Person }
        type Person { name: String! }
        """

    @Test func thePackagesQueriesAreValidAgainstItsSchema() async {
        let run = await Self.check([])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("fragments: 0 errors\n"))
    }

    @Test func problemsPrintWithPlaceSourceLineCaretAndRuleThenTheSummary() async throws {
        let root = try Self.folder([
            "Schemas/pets.graphql": Self.petSchema,
            "Queries/GetPet.graphql": "query GetPet($id: ID!) {\n  pet(id: $id) {\n    nickname\n  }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = await Self.check([], in: root)
        #expect(run.status == 1)
        #expect(run.stdout == """
            Queries/GetPet.graphql:3:5: error: Cannot query field "nickname" on type "Pet". Did you mean "name"? \
            [FieldsOnCorrectTypeRule]
                nickname
                ^
            1 file, 1 operation, 0 fragments: 1 error

            """)
    }

    @Test func filesOfOneFolderShareFragmentsAndFragmentOnlyFilesAreFine() async throws {
        let root = try Self.folder([
            "Schemas/pets.graphql": Self.petSchema,
            "Queries/Fragments.graphql": "fragment PetParts on Pet { id name }\nfragment Unused on Pet { id }\n",
            "Queries/Pets.graphql": "query Pets { pets { ...PetParts } }\n",
            "Queries/Nested/Other.graphql": "query Other { pets { ...PetParts } }\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = await Self.check(["--format", "json"], in: root)
        #expect(run.status == 1)
        let errors = try #require(try JSONValue(parsing: run.stdout).arrayValue)
        let reported = errors.map { error in
            "\(error["file"]?.stringValue ?? ""):\(error["line"]?.intValue ?? 0) \(error["rule"]?.stringValue ?? "")"
        }
        // Nested/ is its own unit, so PetParts is unknown there; Unused is used by no operation.
        #expect(reported == [
            "Queries/Fragments.graphql:2 NoUnusedFragmentsRule",
            "Queries/Nested/Other.graphql:1 KnownFragmentNamesRule",
        ])
        #expect(run.stderr.contains("3 files, 2 operations, 2 fragments: 2 errors"))
    }

    @Test func syntaxErrorsAreReportedWithoutARule() async throws {
        let root = try Self.folder(["Schemas/pets.graphql": Self.petSchema, "Queries/Bad.graphql": "query {\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = await Self.check(["--format", "json"], in: root)
        #expect(run.status == 1)
        let errors = try #require(try JSONValue(parsing: run.stdout).arrayValue)
        #expect(errors.count == 1)
        #expect(errors.first?["rule"] == .null)
        #expect(errors.first?["message"]?.stringValue?.hasPrefix("Syntax Error:") == true)
    }

    @Test func aSchemaThatDoesNotBuildFailsUnlessLenient() async throws {
        let root = try Self.folder([
            "Schemas/a.graphql": "type Query { pet: Pet }\ntype Pet { id: ID }\n",
            "Schemas/b.graphqls": "extend type Pet { id: ID, name: String }\n",
            "Queries/Q.graphql": "{ pet { id name } }\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let strict = await Self.check([], in: root)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains(
            #"Schemas/a.graphql:2:12: error: Field "Pet.id" can only be defined once. [UniqueFieldDefinitionNamesRule]"#
        ))
        #expect(strict.stdout.contains("Schemas/b.graphqls:1:19: note: related location"))
        #expect(strict.stdout.contains("The schema does not build"))
        let lenient = await Self.check(["--lenient"], in: root)
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains(#"warning: Field "Pet.id" can only be defined once."#))
        #expect(lenient.stdout.contains("1 file, 1 operation, 0 fragments: 0 errors"))
    }

    @Test func anIntrospectionResultIsASchema() async throws {
        let json = """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "mutationType": null, "subscriptionType": null,
              "types": [
                {"kind": "OBJECT", "name": "Query", "fields": [
                  {"name": "hello", "args": [], "type": {"kind": "SCALAR", "name": "String"}, "isDeprecated": false}
                ], "interfaces": []},
                {"kind": "SCALAR", "name": "String"}
              ], "directives": []}}}
            """
        let root = try Self.folder(["schema.json": json, "Queries/Q.graphql": "{ hello goodbye }\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = await Self.check(["--schema", "schema.json"], in: root)
        #expect(run.status == 1)
        #expect(run.stdout.contains(#"Cannot query field "goodbye" on type "Query"."#))
    }

    @Test(arguments: [
        ["--schema", "Nowhere"],
        ["--format", "yaml"],
        ["Missing.graphql"],
    ])
    func usageAndMissingPathsExitWithTwo(_ arguments: [String]) async {
        let run = await Self.check(arguments)
        #expect(run.status == 2)
        #expect(!run.stderr.isEmpty)
    }
}
