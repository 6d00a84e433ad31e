import Foundation
import Gateway
import GatewayTesting
import Testing

/// Query parameters through `provider.send`, the real `URLSessionTransport` and a loopback
/// server: the raw query string the server received, and the items it decoded from it, for every
/// array, boolean and date strategy.
@Suite struct QueryEncodingEndToEndTests {
    struct Search: Encodable, Sendable {
        var q = "rock & roll/ü"
        var kinds = ["track", "artist"]
    }

    struct Flags: Encodable, Sendable {
        var explicit = true
        var live = false
    }

    struct Since: Encodable, Sendable {
        var since = Date(timeIntervalSince1970: 1_700_000_000.25)
    }

    struct OK: Decodable, Sendable {
        var ok: Bool
    }

    /// Sends `parameters` with `encoder` as a GET to `search` and returns the server's view of it.
    private func send(
        _ parameters: some Encodable & Sendable, _ encoder: QueryParameterEncoder
    ) async throws -> LoopbackRequest {
        let server = try LoopbackServer { _ in .json(#"{"ok": true}"#) }
        defer { server.shutdown() }
        let response = try await EndToEnd.provider(server).send(
            Endpoint<OK>.get("search", parameters: parameters, encoder: encoder))
        #expect(response.status == 200)
        #expect(response.value.ok)
        let request = try EndToEnd.onlyRequest(server)
        #expect(request.method == "GET")
        #expect(request.path == "/api/search")
        #expect(request.body.isEmpty)
        return request
    }

    @Test(arguments: [
        (URLEncodingOptions.ArrayEncoding.brackets,
         "kinds%5B%5D=track&kinds%5B%5D=artist&q=rock%20%26%20roll%2F%C3%BC",
         ["kinds[]=track", "kinds[]=artist", "q=rock & roll/ü"]),
        (.repeated,
         "kinds=track&kinds=artist&q=rock%20%26%20roll%2F%C3%BC",
         ["kinds=track", "kinds=artist", "q=rock & roll/ü"]),
        (.indexed,
         "kinds%5B0%5D=track&kinds%5B1%5D=artist&q=rock%20%26%20roll%2F%C3%BC",
         ["kinds[0]=track", "kinds[1]=artist", "q=rock & roll/ü"]),
    ])
    func arraysArriveAsTheStrategyWritesThem(
        arrays: URLEncodingOptions.ArrayEncoding, rawQuery: String, items: [String]
    ) async throws {
        let request = try await send(Search(), .query(arrays: arrays))
        #expect(request.rawQuery == rawQuery)
        #expect(EndToEnd.pairs(request.query) == items)
    }

    @Test(arguments: [
        (URLEncodingOptions.BoolEncoding.numeric, "explicit=1&live=0", ["explicit=1", "live=0"]),
        (.literal, "explicit=true&live=false", ["explicit=true", "live=false"]),
    ])
    func boolsArriveAsTheStrategyWritesThem(
        bools: URLEncodingOptions.BoolEncoding, rawQuery: String, items: [String]
    ) async throws {
        let request = try await send(Flags(), .query(bools: bools))
        #expect(request.rawQuery == rawQuery)
        #expect(EndToEnd.pairs(request.query) == items)
    }

    enum DateCase: String, CaseIterable, Sendable {
        case seconds, milliseconds, iso8601, custom

        var strategy: URLEncodingOptions.DateEncoding {
            switch self {
            case .seconds: .secondsSince1970
            case .milliseconds: .millisecondsSince1970
            case .iso8601: .iso8601
            case .custom: .custom { "day-\(Int($0.timeIntervalSince1970) / 86_400)" }
            }
        }

        var rawQuery: String {
            switch self {
            case .seconds: "since=1700000000.25"
            case .milliseconds: "since=1700000000250"
            case .iso8601: "since=2023-11-14T22%3A13%3A20Z"
            case .custom: "since=day-19675"
            }
        }

        var decoded: String {
            switch self {
            case .seconds: "since=1700000000.25"
            case .milliseconds: "since=1700000000250"
            case .iso8601: "since=2023-11-14T22:13:20Z"
            case .custom: "since=day-19675"
            }
        }
    }

    @Test(arguments: DateCase.allCases)
    func datesArriveAsTheStrategyWritesThem(_ date: DateCase) async throws {
        let request = try await send(Since(), .query(dates: date.strategy))
        #expect(request.rawQuery == date.rawQuery)
        #expect(EndToEnd.pairs(request.query) == [date.decoded])
    }

    @Test func encodedParametersFollowTheEndpointsFixedQueryItems() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.shutdown() }
        let endpoint = Endpoint<Empty>(
            method: .get, path: "search", query: [URLQueryItem(name: "page", value: "2")],
            parameters: [RequestParameters(Search(kinds: ["release"]), encoder: .query(arrays: .repeated))],
            decoding: .automatic)
        _ = try await EndToEnd.provider(server).send(endpoint)
        let request = try EndToEnd.onlyRequest(server)
        #expect(request.rawQuery == "page=2&kinds=release&q=rock%20%26%20roll%2F%C3%BC")
    }
}
