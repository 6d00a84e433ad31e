import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// A generated operation is sent without parsing; its selection is parsed only when asked for.
@Suite struct GeneratedOperationParsingTests {
    @Test func sendingAGeneratedOperationParsesNothing() async throws {
        // The text does not parse: sending it still works, so sending did not parse it.
        let stub = StubTransport()
        stub.onGraphQL("Broken", reply: .graphQL(data: ["plays": 1]))
        let response = try await makeProvider(stub).fetch(BrokenQuery())
        #expect(response.data.plays == 1)
        #expect(stub.graphQLRequests.first?.query == BrokenQuery.definition.text)
    }

    @Test func aTextThatDoesNotParseIsReportedWhereTheSelectionIsNeeded() throws {
        let operation = BrokenQuery.operation
        #expect(operation.description == "query Broken")
        #expect(operation.variableNames.isEmpty)
        #expect(operation.selection.operation.name?.value == "Broken")
        #expect(operation.selection.operation.selectionSet.selections.isEmpty)
        let error = try #require(throws: GatewayError.self) { try operation.checkedVariables([:]) }
        #expect(error.kind == .invalidOperation)
        #expect(error.message.contains("the generated text of query Broken"))
        #expect(error.fix?.contains("gateway generate") == true)
        let request = try #require(throws: GatewayError.self) {
            try GraphQLRequest<JSONValue>(operation: operation, variables: [:])
        }
        #expect(request.kind == .invalidOperation)
    }

    @Test func theSelectionOfAValidDefinitionIsParsedWhenAskedFor() throws {
        let operation = GraphQLOperation(definition: GetTrackQuery.definition)
        #expect(operation.name == "GetTrack" && operation.kind == .query)
        #expect(operation.text == GetTrackQuery.definition.text)
        #expect(operation.schema == nil && operation.location == nil)
        #expect(operation.variableNames == ["id"])
        #expect(operation.fragmentNames == ["ArtistSummary", "ReleaseSummary", "TrackSummary"])
        // A request made with untyped variables is checked as usual.
        let error = try #require(throws: GatewayError.self) {
            try GraphQLRequest<JSONValue>(operation: operation, variables: [:])
        }
        #expect(error.kind == .invalidVariables)
        let request = try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": "t1"])
        #expect(request.variables == ["id": "t1"])
    }

    @Test func everyTypeKeepsTheOperationOfItsOwnDefinition() {
        #expect(GetTrackQuery.operation.description == "query GetTrack")
        #expect(MeQuery.operation.description == "query Me")
        #expect(LikeTrackMutation.operation.description == "mutation LikeTrack")
        #expect(GetTrackQuery.operation.normalizedText == GetTrackQuery.definition.normalizedText)
    }
}
