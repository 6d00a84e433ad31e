import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// Every method's factory takes the query the same two ways, with a body or without.
@Suite(.quietScheduler) struct EndpointFactoryTests {
    private struct Page: Encodable, Sendable {
        var page = 2
        var tags = ["a b", "c"]
    }

    private struct Draft: Encodable, Sendable {
        var title = "Night"
    }

    private static let expectedQuery = "page=2&tags%5B%5D=a%20b&tags%5B%5D=c"
    private static let items = [URLQueryItem(name: "page", value: "2")]

    /// The URL query and body text each endpoint sends.
    private func sent(_ endpoints: [Endpoint<Empty>]) async throws -> [(query: String?, body: String)] {
        let stub = StubTransport(unmatched: .notFound)
        for method in [HTTPMethod.get, .post, .put, .patch, .delete, .head] {
            stub.on(method, .any, reply: .status(204))
        }
        let provider = makeProvider(stub)
        for endpoint in endpoints { _ = try await provider.send(endpoint) }
        return stub.requests.map { ($0.percentEncodedQuery, $0.bodyText) }
    }

    @Test func everyMethodTakesEncodableQueryParameters() async throws {
        let sent = try await sent([
            .get("tracks", query: Page()), .post("tracks", query: Page()), .put("tracks", query: Page()),
            .patch("tracks", query: Page()), .delete("tracks", query: Page()), .head("tracks", query: Page()),
        ])
        #expect(sent.map(\.query) == Array(repeating: Self.expectedQuery, count: 6))
        #expect(sent.allSatisfy { $0.body.isEmpty })
    }

    @Test func everyMethodTakesQueryItems() async throws {
        let sent = try await sent([
            .get("tracks", query: Self.items), .post("tracks", query: Self.items), .put("tracks", query: Self.items),
            .patch("tracks", query: Self.items), .delete("tracks", query: Self.items),
            .head("tracks", query: Self.items),
        ])
        #expect(sent.map(\.query) == Array(repeating: "page=2", count: 6))
    }

    @Test func everyMethodWithABodyTakesBothFormsOfQuery() async throws {
        let sent = try await sent([
            .post("tracks", body: Draft(), query: Page()), .put("tracks", body: Draft(), query: Page()),
            .patch("tracks", body: Draft(), query: Page()), .delete("tracks", body: Draft(), query: Page()),
            .post("tracks", body: Draft(), query: Self.items), .put("tracks", body: Draft(), query: Self.items),
            .patch("tracks", body: Draft(), query: Self.items), .delete("tracks", body: Draft(), query: Self.items),
        ])
        #expect(sent.map(\.query) == Array(repeating: Self.expectedQuery, count: 4)
            + Array(repeating: "page=2", count: 4))
        #expect(sent.allSatisfy { $0.body == #"{"title":"Night"}"# })
    }

    @Test func aDictionaryLiteralIsAQueryAndTheEncoderCanBeChosen() async throws {
        let sent = try await sent([
            .get("tracks", query: ["ids": [1, 2]], queryEncoder: .query(arrays: .repeated)),
            .post("tracks", query: ["ids": [1, 2]]),
            .get("tracks", parameters: ["ids": [1, 2]]),
        ])
        #expect(sent.map(\.query) == ["ids=1&ids=2", "ids%5B%5D=1&ids%5B%5D=2", "ids%5B%5D=1&ids%5B%5D=2"])
    }

    @Test func fixedQueryItemsComeBeforeEncodedOnes() async throws {
        let endpoint = Endpoint<Empty>.request(.post, "tracks", query: Page(), body: Draft())
            .with { $0.query = [URLQueryItem(name: "v", value: "1")] }
        let sent = try await sent([endpoint])
        #expect(sent.first?.query == "v=1&" + Self.expectedQuery)
        #expect(sent.first?.body == #"{"title":"Night"}"#)
    }
}
