import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// The query-file helper: it passes on valid files, and records each problem as an issue at the
/// `.graphql` file, line and column.
/// The tests write fixture files: the suite runs off the cooperative pool.
@Suite(.offPool) struct QueryFileChecksTests {
    /// The project's own example API: its queries match its schema.
    @Test func thePackagesQueriesMatchItsSchema() throws {
        let outcome = try #require(expectValidQueryFiles())
        let queries = try #require(outcome.queries)
        #expect(queries.fileCount >= 8)
        #expect(queries.operationCount >= 8)
        #expect(queries.fragmentCount > 0)
    }

    /// A fresh folder holding `files` (relative path → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("queries-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url)
        }
        return root.standardizedFileURL
    }

    static let schema = """
        type Query { track(id: ID!): Track }
        type Track { id: ID!, title: String!, durationMs: Int! }
        """

    /// Records the places of the issues raised inside `withKnownIssue`.
    final class IssuePlaces: Sendable {
        private let places = Locked<[String]>([])

        func add(_ issue: Issue) {
            let place = issue.sourceLocation.map { "\($0.filePath):\($0.line):\($0.column)" } ?? "none"
            places.withLock { $0.append(place) }
        }

        var recorded: [String] { places.value }
    }

    @Test func aQueryThatDoesNotMatchTheSchemaFailsAtItsFileAndLine() throws {
        let root = try Self.folder([
            "Schemas/schema.graphql": Self.schema,
            "Queries/Fragments.graphql": "fragment TrackParts on Track {\n  id\n  title\n}\n",
            "Queries/GetTrack.graphql": """
                query GetTrack($id: ID!) {
                  track(id: $id) {
                    ...TrackParts
                    duration
                  }
                }
                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let places = IssuePlaces()
        withKnownIssue {
            expectValidQueryFiles(in: root.appendingPathComponent("Queries").path,
                                  schema: root.appendingPathComponent("Schemas").path)
        } matching: { issue in
            places.add(issue)
            return issue.comments.contains { $0.rawValue.contains(#"Cannot query field "duration" on type "Track""#) }
        }
        #expect(places.recorded == [root.appendingPathComponent("Queries/GetTrack.graphql").path + ":4:5"])
    }

    @Test func relativePathsResolveAgainstThePackageRoot() throws {
        let root = try Self.folder([
            "Package.swift": "// swift-tools-version: 6.1\n",
            "Schemas/schema.graphql": Self.schema,
            "Queries/GetTrack.graphql": "query GetTrack {\n  track {\n    id\n  }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let places = IssuePlaces()
        withKnownIssue {
            expectValidQueryFiles(filePath: root.appendingPathComponent("Tests/Suite/SomeTests.swift").path)
        } matching: { issue in
            places.add(issue)
            return true
        }
        // The missing required argument is reported at the field.
        #expect(places.recorded == [root.appendingPathComponent("Queries/GetTrack.graphql").path + ":2:3"])
    }

    @Test func aSchemaProblemFailsAtTheSchemaFile() throws {
        let root = try Self.folder([
            "Schemas/schema.graphql": Self.schema + "\nextend type Track { title: String! }\n",
            "Queries/GetTrack.graphql": "query GetTrack {\n  track(id: 1) {\n    id\n  }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let places = IssuePlaces()
        withKnownIssue {
            expectValidQueryFiles(in: root.appendingPathComponent("Queries").path,
                                  schema: root.appendingPathComponent("Schemas").path)
        } matching: { issue in
            places.add(issue)
            return true
        }
        // The first definition of `title`, where graphql-js points.
        #expect(places.recorded.first == root.appendingPathComponent("Schemas/schema.graphql").path + ":2:23")
        #expect(places.recorded.count == 2)  // the duplicate field, then "the schema does not build"

        // Lenient building lets the same files pass.
        let lenient = expectValidQueryFiles(in: root.appendingPathComponent("Queries").path,
                                            schema: root.appendingPathComponent("Schemas").path, lenient: true)
        #expect(lenient?.queries?.errorCount == 0)
        #expect(lenient?.schemaDiagnostics.map(\.severity) == [.warning])
    }

    @Test func aMissingFolderIsRecordedAtTheCall() throws {
        let places = IssuePlaces()
        withKnownIssue {
            expectValidQueryFiles(in: "NoSuchFolder")
        } matching: { issue in
            places.add(issue)
            return issue.comments.contains { $0.rawValue.contains("NoSuchFolder") }
        }
        #expect(places.recorded.count == 1)
        #expect(places.recorded.first?.contains("QueryFileChecksTests.swift") == true)
    }
}
