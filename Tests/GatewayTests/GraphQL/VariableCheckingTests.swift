import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

@Suite struct VariableCheckingTests {
    /// One way variables can be wrong: the operation, the variables, and the problem expected.
    struct Failure: CustomTestStringConvertible, Sendable {
        var operation: String
        var variables: GraphQLVariables
        var problem: GraphQLVariableError.Problem
        var path: String
        var words: String
        var testDescription: String { "\(problem) \(path)" }
    }

    static let failures: [Failure] = [
        Failure(operation: "GetTrack", variables: [:], problem: .missing, path: "$id",
                words: "variable $id of type ID! is required but was not given"),
        Failure(operation: "GetTrack", variables: ["id": "t1", "idd": "t2"], problem: .unknown, path: "$idd",
                words: "variable $idd is not declared by query GetTrack (it declares $id); did you mean $id?"),
        Failure(operation: "GetTrack", variables: ["id": nil], problem: .null, path: "$id",
                words: "$id must not be null (its type is ID!)"),
        Failure(operation: "GetTrack", variables: ["id": true], problem: .wrongType, path: "$id",
                words: "$id: expected ID (a string or a whole number), got a boolean"),
        Failure(operation: "GetPlaylist", variables: ["id": "p1", "first": "20"], problem: .wrongType, path: "$first",
                words: "$first: expected Int (a whole number from -2147483648 to 2147483647), got a string"),
        Failure(operation: "GetPlaylist", variables: ["id": "p1", "first": 4_294_967_296], problem: .wrongType,
                path: "$first", words: "$first: expected Int"),
        Failure(operation: "GetPlaylist", variables: ["id": "p1", "first": 2.5], problem: .wrongType, path: "$first",
                words: "got a number"),
        Failure(operation: "Search", variables: ["text": 42], problem: .wrongType, path: "$text",
                words: "$text: expected String (a string), got an integer"),
        Failure(operation: "CreatePlaylist", variables: ["name": "x", "isPublic": "yes"], problem: .wrongType,
                path: "$isPublic", words: "$isPublic: expected Boolean (true or false), got a string"),
        Failure(operation: "Search", variables: ["text": "a", "kinds": ["TRACK", nil]], problem: .null,
                path: "$kinds[1]", words: "$kinds[1] must not be null (its type is SearchKind!)"),
        Failure(operation: "Search", variables: ["text": "a", "kinds": ["TRACK", "TRAK"]], problem: .unknownEnumValue,
                path: "$kinds[1]", words: "\"TRAK\" is not a value of enum SearchKind; did you mean \"TRACK\"?"),
        Failure(operation: "GetArtist", variables: ["id": "a1", "releaseKind": 3], problem: .wrongType,
                path: "$releaseKind", words: "expected a value of enum ReleaseKind (a string), got an integer"),
        Failure(operation: "LikeTrack", variables: ["input": "t1"], problem: .wrongType, path: "$input",
                words: "$input: expected input object LikeTrackInput, got a string"),
        Failure(operation: "LikeTrack", variables: ["input": ["trackID": "t1", "trackId": "t1"]],
                problem: .unknownField,
                path: "$input.trackId", words: "input type LikeTrackInput has no field \"trackId\"; did you mean "
                    + "\"trackID\"?"),
        Failure(operation: "LikeTrack", variables: ["input": ["source": "radio"]], problem: .missingField,
                path: "$input.trackID", words: "field trackID of input type LikeTrackInput (type ID!) is required"),
        Failure(operation: "LikeTrack", variables: ["input": ["trackID": ["t1"]]], problem: .wrongType,
                path: "$input.trackID", words: "$input.trackID: expected ID"),
    ]

    @Test(arguments: failures)
    func aVariableProblemIsNamedAndNothingIsSent(_ failure: Failure) async throws {
        let stub = StubTransport()
        stub.on(.graphQL(nil), reply: [.graphQL(data: ["ok": true])])
        let provider = makeProvider(stub)
        let operation = try GraphQLFixtures.store()[failure.operation]
        let error = try await #require(throws: GatewayError.self) {
            try await provider.fetch(operation, variables: failure.variables, as: JSONValue.self)
        }
        #expect(error.kind == .invalidVariables)
        #expect(error.message.contains(failure.words))
        #expect(error.message.contains("nothing was sent"))
        let problem = try #require(error.variableErrors.first)
        #expect(error.variableErrors.count == 1)
        #expect(problem.problem == failure.problem)
        #expect(problem.path == failure.path)
        #expect(stub.requests.isEmpty)
    }

    @Test func everyProblemIsListedAtOnce() throws {
        let operation = try GraphQLFixtures.store()["Search"]
        let error = try #require(throws: GatewayError.self) {
            try operation.checkedVariables(["kinds": "TRAK", "extra": 1])
        }
        #expect(error.variableErrors.map(\.problem) == [.unknown, .missing, .unknownEnumValue])
        #expect(error.fix == "query Search declares $text: String!, $kinds: [SearchKind!], $first: Int")
    }

    @Test func hostileNestingIsBoundedNotACrash() throws {
        let sdl = "type Query { a(n: Nested): Int }\ninput Nested { next: Nested, v: Int }"
        let built = Schema.build(sources: [Source(sdl)])
        let schema = try #require(built.schema)
        var value: JSONValue = ["v": 1]
        for _ in 0..<1_000 { value = ["next": value] }
        let operation = try GraphQLOperation("query Q($n: Nested) { a(n: $n) }", schema: schema)
        let error = try #require(throws: GatewayError.self) { try operation.checkedVariables(["n": value]) }
        #expect(error.variableErrors.map(\.problem) == [.tooDeep])
        #expect(error.variableErrors.first?.path.hasPrefix("$n.next.next.") == true)
    }

    @Test func declaredDefaultsFillAbsentVariablesAndNullStays() async throws {
        let stub = StubTransport()
        stub.on(.graphQL(nil), reply: [.graphQL(data: ["playlist": nil])])
        let provider = makeProvider(stub)
        let store = try GraphQLFixtures.store()
        _ = try await provider.fetch(store["GetPlaylist"], variables: ["id": "p1", "after": nil], as: JSONValue.self)
        let sent = try #require(stub.graphQLRequests.first)
        #expect(sent.variables == ["id": "p1", "first": 20, "after": nil])
        #expect(JSONValue.object(sent.variables).serialized() == #"{"id":"p1","first":20,"after":null}"#)
    }

    @Test func valuesServersCoerceAreAccepted() throws {
        let store = try GraphQLFixtures.store()
        // An integer for an ID, one value where a list is expected, a whole float for an Int,
        // any value for a custom scalar, and an input object's optional fields left out.
        _ = try store["GetTrack"].checkedVariables(["id": 7])
        _ = try store["Search"].checkedVariables(["text": "a", "kinds": "TRACK", "first": 3.0])
        _ = try store["LikeTrack"].checkedVariables(["input": ["trackID": "t1"]])
        let custom = try GraphQLOperation("query Q($at: DateTime!) { me { id } }")
        _ = try custom.checkedVariables(["at": ["anything": [1, 2]]])
        // Without a schema, enums and input objects are not known, so they are not checked.
        let unchecked = try GraphQLOperation("query Q($k: SearchKind, $i: LikeTrackInput) { a }")
        _ = try unchecked.checkedVariables(["k": 3, "i": "x"])
    }

    struct LikeTrackVariables: Encodable, Sendable {
        struct Input: Encodable, Sendable {
            var trackID: String
            var source: String?
        }
        var input: Input
    }

    @Test func variablesMayComeFromAnEncodableValue() async throws {
        let stub = StubTransport()
        stub.on(.graphQL("LikeTrack"), reply: [.graphQL(data: ["likeTrack": ["likedCount": 1]])])
        let provider = makeProvider(stub)
        let operation = try GraphQLFixtures.store()["LikeTrack"]
        _ = try await provider.fetch(operation, variables: LikeTrackVariables(input: .init(trackID: "t1")),
                                     as: JSONValue.self)
        #expect(stub.graphQLRequests.first?.variables == ["input": ["trackID": "t1"]])

        let wrong = try await #require(throws: GatewayError.self) {
            try await provider.fetch(operation, variables: ["input", "t1"], as: JSONValue.self)
        }
        #expect(wrong.kind == .invalidVariables)
        #expect(wrong.message.contains("must be a JSON object, not a list"))
        #expect(stub.requests.count == 1)
    }
}
