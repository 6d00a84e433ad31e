import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// Hand-written models checked against the example API's schema and queries: a correct model
/// passes, and each kind of mistake is recorded with the model's property path and the query's field.
/// The suite reads the schema and queries and decodes hundreds of responses: it runs off the pool.
@Suite(.offPool) struct GraphQLModelCheckTests {
    static let root = QueryFileChecks.packageRoot(containing: #filePath)

    /// The example API's schema and operations, loaded once.
    static let fixture = OnceCache<String, Fixture>()

    struct Fixture: Sendable {
        var schema: Schema
        var operations: OperationStore
    }

    static func load() async throws -> Fixture {
        try await fixture.value(for: "music") {
            let schema = try OperationStore.schema(at: root.appendingPathComponent("Schemas/music.graphql"))
            let operations = try OperationStore(directory: root.appendingPathComponent("Queries"), schema: schema)
            return Fixture(schema: schema, operations: operations)
        }
    }

    /// The decoder the app uses: ISO 8601 dates for `DateTime`.
    static func decoder() -> JSONDecoder {
        JSONDecodingOptions(dates: .iso8601).makeDecoder()
    }

    /// Runs `check` inside `withKnownIssue` and returns the text of each issue it records.
    static func recordedIssues(_ check: () -> Void) -> [String] {
        let texts = Locked<[String]>([])
        withKnownIssue {
            check()
        } matching: { issue in
            texts.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        return texts.value
    }

    @Test func aCorrectModelDecodesEveryResponseTheSchemaAllows() async throws {
        let fixture = try await Self.load()
        let problems = try expectModel(
            GetTrack.self, decodes: fixture.operations["GetTrack"], decoder: Self.decoder(),
            scalars: ["Milliseconds": 215_000])
        #expect(problems.isEmpty)
        #expect(try expectModel(Search.self, decodes: fixture.operations["Search"], decoder: Self.decoder(),
                                scalars: ["Milliseconds": 215_000]).isEmpty)
        #expect(try expectModel(Me.self, decodes: fixture.operations["Me"]).isEmpty)
    }

    @Test func aNonOptionalPropertyForANullableFieldIsRecordedWithItsPathAtTheCall() async throws {
        let fixture = try await Self.load()
        let places = Locked<[String]>([])
        let texts = Locked<[String]>([])
        let line = #line + 2
        withKnownIssue {
            expectModel(WrongMe.self, decodes: "query Me { me { id displayName country plan } }",
                        schema: fixture.schema)
        } matching: { issue in
            places.withLock { $0.append(issue.sourceLocation.map { "\($0.fileName):\($0.line)" } ?? "none") }
            texts.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        #expect(texts.value == [
            #"Me.me.country: the query selects "country: String" (nullable) but the model's String is not optional"#,
        ])
        #expect(places.value == ["GraphQLModelCheckTests.swift:\(line)"])

        // An object the model cannot do without.
        let getTrack = try fixture.operations["GetTrack"]
        let issues = Self.recordedIssues {
            expectModel(GetTrack.AlwaysThere.self, decodes: getTrack, decoder: Self.decoder(),
                        scalars: ["Milliseconds": 215_000])
        }
        #expect(issues == [
            #"GetTrack.track: the query selects "track: Track" (nullable) but the model's property is not optional"#,
        ])
    }

    @Test func aPropertyTheQueryDoesNotSelectIsRecordedWithItsPath() async throws {
        let fixture = try await Self.load()
        let getTrack = try fixture.operations["GetTrack"]
        let issues = Self.recordedIssues {
            expectModel(
                GetTrack.WithMonthlyListeners.self, decodes: getTrack,
                decoder: Self.decoder(), scalars: ["Milliseconds": 215_000])
        }
        #expect(issues == [
            #"GetTrack.track.artists[0].monthlyListeners: the model decodes "monthlyListeners" but the query "#
                + "does not select it on Artist (it selects id, name); select the field, or make the property optional",
        ])
    }

    @Test func aWrongScalarTypeIsRecordedWithItsPath() async throws {
        let fixture = try await Self.load()
        let getTrack = try fixture.operations["GetTrack"]
        let issues = Self.recordedIssues {
            expectModel(
                GetTrack.WithNumericTitle.self, decodes: getTrack, decoder: Self.decoder(),
                scalars: ["Milliseconds": 215_000])
        }
        #expect(issues == [
            #"GetTrack.track.title: the query selects "title: String!" but the model's Int cannot decode the "#
                + #"String "text""#,
        ])
    }

    @Test func aMissingUnionCaseIsRecordedWithThePossibleTypes() async throws {
        let fixture = try await Self.load()
        let search = try fixture.operations["Search"]
        let issues = Self.recordedIssues {
            expectModel(
                SearchWithoutReleases.self, decodes: search, decoder: Self.decoder(),
                scalars: ["Milliseconds": 215_000])
        }
        #expect(issues == [
            #"Search.search[0].__typename: the response can hold a Release here (SearchResult is one of "#
                + "Track, Artist, Release) but the model cannot decode it: unknown search result Release",
        ])
    }

    @Test func aCustomScalarWithoutAValueSaysHowToGiveOne() async throws {
        let fixture = try await Self.load()
        let check = try GraphQLModelCheck(fixture.operations["GetTrack"])
        let problems = check.problems(decoding: GetTrack.self, decoder: Self.decoder())
        #expect(problems.map(\.description) == [
            #"GetTrack.track.duration: the query selects "duration: Milliseconds!" but the model's Int cannot "#
                + #"decode the custom scalar Milliseconds, synthesized as "Milliseconds"; give it a representative "#
                + #"value with scalars: ["Milliseconds": …]"#,
        ])
    }

    @Test func anEnumValueTheModelLacksIsRecordedWithTheEnumsValues() async throws {
        let fixture = try await Self.load()
        let getTrack = try fixture.operations["GetTrack"]
        let issues = Self.recordedIssues {
            expectModel(GetTrack.WithFewGenres.self, decodes: getTrack, decoder: Self.decoder(),
                        scalars: ["Milliseconds": 215_000])
        }
        #expect(issues == [
            #"GetTrack.track.genres[0]: the response can hold "HIP_HOP" for "genres: [Genre!]!" (Genre is one of "#
                + "ROCK, POP, JAZZ, ELECTRONIC, HIP_HOP, CLASSICAL, FOLK) but the model cannot decode it: "
                + "Cannot initialize FewGenres from invalid String value HIP_HOP",
        ])
    }

    @Test func aFieldADirectiveMayLeaveOutNeedsAnOptionalProperty() async throws {
        let fixture = try await Self.load()
        let issues = Self.recordedIssues {
            expectModel(MeName.self, decodes: "query Me($full: Boolean!) { me { id displayName @include(if: $full) } }",
                        schema: fixture.schema)
        }
        #expect(issues == [
            #"Me.me.displayName: the query selects "displayName: String!" only @include(if: $full), so the "#
                + "response can leave it out, but the model's property is not optional",
        ])
    }

    @Test func aFieldSelectedOnOnlyOneTypeOfAnInterfaceIsRecordedForTheOthers() throws {
        let built = Schema.build(sources: [Source("""
            type Query { node: Node! }
            interface Node { id: ID! }
            type User implements Node { id: ID!, name: String! }
            type Group implements Node { id: ID!, size: Int }
            """, name: "nodes.graphql")])
        let schema = try #require(built.schema, "\(built.diagnostics)")
        let issues = Self.recordedIssues {
            expectModel(AnyNode.self, decodes: "{ node { __typename id ... on User { name } } }", schema: schema)
        }
        #expect(issues == [
            #"data.node.name: when "node" holds a Group (Node is one of User, Group), the model decodes "name" "#
                + #"but Group has no such field (the query selects __typename, id); it selects "name" on User only; "#
                + "remove the property, or make it optional",
        ])
    }
}
