import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gateway
import GatewayTesting
import GatewayTestSupport
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// The example API's files, from this file's place in the package.
enum QueryFiles {
    static let root = QueryFileChecks.packageRoot(containing: #filePath)
    static let queries = root.appendingPathComponent("Queries")

    static func path(_ name: String) -> String { queries.appendingPathComponent(name).path }

    /// The text of each fragment of `Queries/Fragments.graphql`, by name, cut from the file as written.
    static func fragmentTexts() throws -> [String: String] {
        let text = try String(contentsOf: queries.appendingPathComponent("Fragments.graphql"), encoding: .utf8)
        var result: [String: String] = [:]
        for piece in text.components(separatedBy: "\nfragment ").dropFirst() {
            let name = String(piece.prefix { $0 != " " })
            result[name] = "fragment " + piece
        }
        return result
    }

    /// Runs `gateway query` with `arguments` (and a generous `--timeout` unless they give one:
    /// on a loaded 2-core machine a loopback server can be slow to get a thread).
    static func run(_ arguments: [String], directory: URL? = nil) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let output = directory.map { sink.output(currentDirectory: $0) } ?? sink.output()
        let timeout = arguments.contains("--timeout") ? [] : ["--timeout", "120"]
        let status = await Dispatcher.standard.run(["query"] + arguments + timeout, output: output)
        return (status, sink)
    }
}

/// `gateway query` against ariadne, a GraphQL server on graphql-core that nobody here wrote:
/// the command must return the data that server gives when the same document and variables are
/// posted to it directly. Skipped, saying so, where ariadne is not installed (`.ci/run` installs
/// it, and there a missing ariadne fails).
@Suite(.serialized, .requires(.ariadne) { try await AriadnePeer.isRunning() })
struct AriadneQueryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var arguments: [String]
        /// The variables as posted directly: only those given, so the server applies the defaults.
        var variables: JSONValue
        var fragments: [String]
        var testDescription: String { "\(file) \(arguments.joined(separator: " "))" }
    }

    static let cases: [Case] = [
        Case(file: "GetTrack.graphql", arguments: ["--var", "id=t2"], variables: ["id": "t2"],
             fragments: ["TrackSummary", "ArtistSummary", "ReleaseSummary"]),
        Case(file: "GetArtist.graphql", arguments: ["--var", "id=a1"], variables: ["id": "a1"],
             fragments: ["ArtistSummary", "TrackSummary", "ReleaseSummary"]),
        Case(file: "GetArtist.graphql", arguments: ["--variables", #"{"id": "a1", "topTracks": 1}"#,
                                                   "--var", "releaseKind=SINGLE"],
             variables: ["id": "a1", "topTracks": 1, "releaseKind": "SINGLE"],
             fragments: ["ArtistSummary", "TrackSummary", "ReleaseSummary"]),
        Case(file: "GetPlaylist.graphql", arguments: ["--var", "id=p1", "--var", "first=2", "--get"],
             variables: ["id": "p1", "first": 2], fragments: ["TrackSummary", "ArtistSummary"]),
        Case(file: "Search.graphql", arguments: ["--var", "text=blue"], variables: ["text": "blue"],
             fragments: ["TrackSummary", "ArtistSummary", "ReleaseSummary"]),
        Case(file: "MyCollection.graphql", arguments: [], variables: [:],
             fragments: ["TrackSummary", "ArtistSummary", "ReleaseSummary"]),
        Case(file: "Me.graphql", arguments: ["--priority", "high", "--retries", "2"], variables: [:], fragments: []),
        Case(file: "LikeTrack.graphql", arguments: ["--var", #"input={"trackID": "t3"}"#],
             variables: ["input": ["trackID": "t3"]], fragments: []),
        Case(file: "CreatePlaylist.graphql", arguments: ["--var", "name=Road Trip", "--var", "isPublic=true"],
             variables: ["name": "Road Trip", "isPublic": true], fragments: []),
    ]

    /// The same document posted straight to the server with URLSession: the file's text and the
    /// fragments it uses, cut from `Fragments.graphql` as written.
    static func direct(_ peer: PythonPeer, _ testCase: Case) async throws -> JSONValue {
        let fragments = try QueryFiles.fragmentTexts()
        var document = try String(contentsOf: QueryFiles.queries.appendingPathComponent(testCase.file), encoding: .utf8)
        for name in testCase.fragments { document += "\n" + (try #require(fragments[name])) }
        let body: JSONValue = ["query": .string(document), "variables": testCase.variables]
        var request = URLRequest(url: try #require(URL(string: "\(peer.baseURL)/graphql/")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.serialized().utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONValue(parsing: [UInt8](data))
    }

    @Test(arguments: cases)
    func returnsTheDataTheServerGivesForTheSameDocument(_ testCase: Case) async throws {
        let peer = try #require(try await AriadnePeer.shared.value)
        let (status, sink) = await QueryFiles.run(
            [QueryFiles.path(testCase.file), "--endpoint", "\(peer.baseURL)/graphql/"] + testCase.arguments)
        #expect(status == 0, "stderr: \(sink.stderr)")
        let printed = try JSONValue(parsing: sink.stdout)
        let expected = try await Self.direct(peer, testCase)
        #expect(expected["errors"] == nil, "the direct request failed: \(expected)")
        #expect(printed["errors"] == nil)
        #expect(printed["data"] != nil)
        #expect(printed["data"] == expected["data"])
    }

    @Test func serverErrorsExitWithOneAndArePrinted() async throws {
        let peer = try #require(try await AriadnePeer.shared.value)
        let (status, sink) = await QueryFiles.run([
            QueryFiles.path("LikeTrack.graphql"), "--endpoint", "\(peer.baseURL)/graphql/",
            "--variables", #"{"input": {"trackID": "no-such-track"}}"#,
        ])
        #expect(status == 1)
        let printed = try JSONValue(parsing: sink.stdout)
        #expect(printed["errors"]?[0]?["message"] == "no track no-such-track")
        #expect(sink.stderr.contains("no track no-such-track"))
    }
}

/// `gateway query` against a loopback server written here: exit statuses, variables, flags.
@Suite struct QueryCommandTests {
    /// A loopback GraphQL endpoint that records what it receives and answers with `answer`.
    final class Endpoint: Sendable {
        let server: LoopbackServer
        let received: Locked<[ReceivedGraphQLRequest]>
        var url: String { server.baseURL.appendingPathComponent("graphql").absoluteString }

        init(answer: @escaping @Sendable (ReceivedGraphQLRequest) -> LoopbackResponse = { _ in
            .json(#"{"data":{"ok":true}}"#)
        }) throws {
            let received = Locked<[ReceivedGraphQLRequest]>([])
            server = try LoopbackServer { request in
                guard let graphQL = ReceivedGraphQLRequest(request) else { return .status(400) }
                received.withLock { $0.append(graphQL) }
                return answer(graphQL)
            }
            self.received = received
        }
    }

    @Test func theHelpListsTheVerbAndItsFlags() async throws {
        let sink = CapturedOutput()
        #expect(await Dispatcher.standard.run(["--help"], output: sink.output()) == 0)
        #expect(sink.stdout.contains("query"))
        let help = CapturedOutput()
        #expect(await Dispatcher.standard.run(["help", "query"], output: help.output()) == 0)
        let flags = ["--endpoint", "--operation", "--variables", "--var", "--header", "--bearer", "--persisted",
                     "--get"]
        for flag in flags {
            #expect(help.stdout.contains(flag))
        }
    }

    @Test func variablesFromFlagsAreJSONWhenTheyParse() async throws {
        let endpoint = try Endpoint()
        defer { endpoint.server.shutdown() }
        let (status, sink) = await QueryFiles.run([
            QueryFiles.path("CreatePlaylist.graphql"), "--endpoint", endpoint.url,
            "--variables", #"{"name": "base", "description": "kept"}"#,
            "--var", "name=Road Trip", "--var", "isPublic=true", "--header", "X-Trace: on", "--bearer", "s3cret",
        ])
        #expect(status == 0, "stderr: \(sink.stderr)")
        #expect(sink.stdout == #"{"data":{"ok":true}}"# + "\n")
        let received = try #require(endpoint.received.value.first)
        #expect(received.operationName == "CreatePlaylist")
        #expect(received.variables == ["name": "Road Trip", "description": "kept", "isPublic": true])
        let request = try #require(endpoint.server.requests.first)
        #expect(request.headers["X-Trace"] == "on")
        #expect(request.headers["Authorization"] == "Bearer s3cret")

        for value in ["id=42", #"id="42""#, "id=t 1"] {
            _ = await QueryFiles.run([QueryFiles.path("GetTrack.graphql"), "--endpoint", endpoint.url, "--var", value])
        }
        #expect(endpoint.received.value.dropFirst().map { $0.variables["id"] } == [42, "42", "t 1"])
    }

    @Test func anUnknownOperationOrAMissingVariableIsAUsageErrorAndSendsNothing() async throws {
        let endpoint = try Endpoint()
        defer { endpoint.server.shutdown() }
        let unknown = await QueryFiles.run([
            QueryFiles.path("GetTrack.graphql"), "--endpoint", endpoint.url, "--operation", "GetTrak", "--var", "id=1",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.sink.stderr.contains("no operation named \"GetTrak\"; did you mean \"GetTrack\"?"))
        let missing = await QueryFiles.run([QueryFiles.path("GetTrack.graphql"), "--endpoint", endpoint.url])
        #expect(missing.status == 2)
        #expect(missing.sink.stderr.contains("variable $id of type ID! is required but was not given"))
        let wrong = await QueryFiles.run([
            QueryFiles.path("GetPlaylist.graphql"), "--endpoint", endpoint.url, "--var", "id=p1", "--var", "first=many",
        ])
        #expect(wrong.status == 2)
        #expect(wrong.sink.stderr.contains("$first: expected Int"))
        let badJSON = await QueryFiles.run([
            QueryFiles.path("Me.graphql"), "--endpoint", endpoint.url, "--variables", "{not json",
        ])
        #expect(badJSON.status == 2)
        let noEndpoint = await QueryFiles.run([QueryFiles.path("Me.graphql")])
        #expect(noEndpoint.status == 2)
        #expect(noEndpoint.sink.stderr.contains("--endpoint URL is required"))
        #expect(endpoint.server.requests.isEmpty)
    }

    @Test func errorsExitWithOneAndTransportFailuresWithThree() async throws {
        let endpoint = try Endpoint { request in
            request.operationName == "Me"
                ? .json(#"{"data":{"me":null},"errors":[{"message":"partly down","path":["me"]}]}"#)
                : .json(#"{"errors":[{"message":"all down"}]}"#)
        }
        defer { endpoint.server.shutdown() }
        let partial = await QueryFiles.run([QueryFiles.path("Me.graphql"), "--endpoint", endpoint.url])
        #expect(partial.status == 1)
        #expect(try JSONValue(parsing: partial.sink.stdout)["errors"]?[0]?["message"] == "partly down")
        let errors = await QueryFiles.run([QueryFiles.path("MyCollection.graphql"), "--endpoint", endpoint.url])
        #expect(errors.status == 1)
        #expect(errors.sink.stdout == #"{"errors":[{"message":"all down"}]}"# + "\n")

        let closed = try Endpoint()
        let url = closed.url
        closed.server.shutdown()
        let refused = await QueryFiles.run([QueryFiles.path("Me.graphql"), "--endpoint", url, "--timeout", "5"])
        #expect(refused.status == 3)
        #expect(refused.sink.stdout.isEmpty)
    }

    @Test func persistedAndGETFlagsChangeWhatIsSent() async throws {
        let known = Locked<Set<String>>([])
        let endpoint = try Endpoint { request in
            guard let hash = request.persistedQueryHash else { return .json(#"{"data":{"me":{"id":"u1"}}}"#) }
            if request.query != nil { known.withLock { _ = $0.insert(hash) } }
            return known.value.contains(hash) ? .json(#"{"data":{"me":{"id":"u1"}}}"#)
                : .json(#"{"errors":[{"message":"PersistedQueryNotFound"}]}"#)
        }
        defer { endpoint.server.shutdown() }
        for _ in 0..<2 {
            let run = await QueryFiles.run([QueryFiles.path("Me.graphql"), "--endpoint", endpoint.url, "--persisted"])
            #expect(run.status == 0, "stderr: \(run.sink.stderr)")
        }
        let get = await QueryFiles.run([QueryFiles.path("Me.graphql"), "--endpoint", endpoint.url, "--get"])
        #expect(get.status == 0)
        let received = endpoint.received.value
        #expect(received.map { $0.query == nil } == [true, false, true, false])
        #expect(received.map(\.transport) == ["POST", "POST", "POST", "GET"])
    }

    @Test func fragmentsAreLookedUpInTheFilesFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("query Mine { me { ...Who } }\nquery Other { me { id } }\n".utf8)
            .write(to: folder.appendingPathComponent("Mine.graphql"))
        try Data("fragment Who on Listener { id displayName }\nfragment Unused on Listener { plan }\n".utf8)
            .write(to: folder.appendingPathComponent("Shared.gql"))
        try Data("this is { not graphql".utf8).write(to: folder.appendingPathComponent("Broken.graphql"))
        let endpoint = try Endpoint()
        defer { endpoint.server.shutdown() }
        let run = await QueryFiles.run(["Mine.graphql", "--endpoint", endpoint.url, "--operation", "Mine"],
                                       directory: folder)
        #expect(run.status == 0, "stderr: \(run.sink.stderr)")
        let query = try #require(endpoint.received.value.first?.query)
        #expect(query.contains("fragment Who on Listener"))
        #expect(!query.contains("Unused"))
        #expect(!query.contains("Other"))
        let several = await QueryFiles.run(["Mine.graphql", "--endpoint", endpoint.url], directory: folder)
        #expect(several.status == 2)
        #expect(several.sink.stderr.contains("Must provide operation name"))
    }
}
