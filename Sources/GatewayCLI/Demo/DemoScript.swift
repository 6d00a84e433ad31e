import Foundation
import Gateway

/// The scripted session of `gateway demo`: REST round trips through one `Provider` with the real
/// `URLSessionTransport` against the example backend, each step checked against what it should
/// give.
struct DemoScript {
    /// What a step should end with.
    enum Expectation {
        case success
        /// A failed status whose API error body has this code.
        case apiError(status: Int, code: String)
    }

    /// How one step went.
    struct StepResult: Sendable {
        /// The step's name, also the label of its endpoint (and so the name observers see).
        var name: String
        var asExpected: Bool
        /// `ok`, `not_found (expected)`, `API error invalid_token`, `timeout error`, …
        var outcome: String
        /// One line for a person: what came back, or what went wrong.
        var detail: String
    }

    /// A value that is not what the backend should have answered.
    struct CheckFailure: Error, CustomStringConvertible {
        var description: String
    }

    let provider: Provider
    let auth = DemoAuthentication()

    /// A script against the backend at `baseURL`, reporting every request to `recorder`.
    init(baseURL: URL, recorder: DemoRecorder) {
        let auth = self.auth
        provider = Provider(baseURL: baseURL, transport: URLSessionTransport(timeout: .seconds(5))) { config in
            config.auth = auth
            config.observers = [recorder]
            config.headers["User-Agent"] = "gateway-demo"
            config.jsonEncoding = JSONEncodingOptions(keys: .convertToSnakeCase)
            config.jsonDecoding = JSONDecodingOptions(keys: .convertFromSnakeCase)
            config.timeout = .seconds(5)
            config.deadline = .seconds(8)
        }
    }

    /// Runs every step in order; a step that fails does not stop the ones after it.
    func run() async -> [StepResult] {
        var results: [StepResult] = []
        results.append(await step("login") { name in
            let session = try await send(Endpoint<ExampleAPI.Session>.post(
                "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username,
                                                     password: ExampleBackend.password)), name, public: true)
            auth.store(session)
            return "signed in as \(session.subject); the access token lasts \(session.expiresIn) s"
        })
        for id in ["1", "4"] {
            results.append(await step("track \(id)") { name in
                let track = try await send(Endpoint<ExampleAPI.Track>.get("tracks/\(id)"), name)
                guard track.id == id else { throw CheckFailure(description: "asked for track \(id), got \(track.id)") }
                return Self.describe(track)
            })
        }
        results.append(await step("search") { name in
            let query = ExampleAPI.SearchQuery(q: "blue hour", kinds: ["track", "release"])
            let found = try await send(Endpoint<ExampleAPI.SearchResults>.get(
                "search", parameters: query, encoder: .query(arrays: .brackets)), name)
            guard !found.results.isEmpty, found.kinds == query.kinds else {
                throw CheckFailure(description: "the search for \"\(query.q)\" found nothing")
            }
            let hits = found.results.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
            return "\"\(found.query)\" in \(found.kinds.joined(separator: " and ")): \(hits)"
        })
        results.append(await step("missing track", expecting: .apiError(status: 404, code: "not_found")) { name in
            let track = try await send(Endpoint<ExampleAPI.Track>.get("tracks/999"), name)
            return Self.describe(track)
        })
        results.append(await step("stream, no token", expecting: .apiError(status: 401, code: "unauthorized")) { name in
            try await streamURL(name, track: "1", public: true)
        })
        results.append(await step("stream URL") { name in try await streamURL(name, track: "1") })
        results.append(await step("refresh") { name in
            guard let old = auth.current else { throw CheckFailure(description: "not logged in") }
            let session = try await send(Endpoint<ExampleAPI.Session>.post(
                "auth/refresh", body: ExampleAPI.Refresh(refreshToken: old.refreshToken)), name, public: true)
            guard session.accessToken != old.accessToken, session.refreshToken != old.refreshToken else {
                throw CheckFailure(description: "the refresh gave back the same tokens")
            }
            auth.store(session)
            return "new tokens for \(session.subject); the old refresh token is spent"
        })
        results.append(await step("stream URL again") { name in try await streamURL(name, track: "6") })
        return results
    }

    private func streamURL(_ name: String, track: String, public: Bool = false) async throws -> String {
        let link = try await send(Endpoint<ExampleAPI.StreamLink>.get("tracks/\(track)/stream"), name, public: `public`)
        guard let url = URL(string: link.url) else { throw CheckFailure(description: "not a URL: \(link.url)") }
        return "\(url.path) on the backend, signed, valid for \(link.expiresIn) s"
    }

    /// Sends `endpoint` labelled `name`, with the API's error body decoded into failures.
    private func send<Value>(_ endpoint: Endpoint<Value>, _ name: String, public: Bool = false) async throws -> Value {
        try await provider.value(endpoint.apiError(ExampleAPI.ErrorBody.self).with { endpoint in
            endpoint.label = name
            endpoint.requiresAuthentication = !`public`
        })
    }

    private func step(_ name: String, expecting: Expectation = .success,
                      _ body: (String) async throws -> String) async -> StepResult {
        do {
            let detail = try await body(name)
            if case .apiError(let status, let code) = expecting {
                return StepResult(name: name, asExpected: false, outcome: "ok, expected API error \(code)",
                                  detail: "expected HTTP \(status), but it succeeded: \(detail)")
            }
            return StepResult(name: name, asExpected: true, outcome: "ok", detail: detail)
        } catch let error as GatewayError {
            let body = error.apiError(as: ExampleAPI.ErrorBody.self)?.error
            let what = body.map { "API error \($0.code)" } ?? "\(error.kind) error"
            if case .apiError(let status, let code) = expecting, error.status == status, body?.code == code {
                return StepResult(name: name, asExpected: true, outcome: "\(code) (expected)",
                                  detail: "HTTP \(HTTPStatus.describe(status)): \(body?.message ?? error.message)")
            }
            return StepResult(name: name, asExpected: false, outcome: what, detail: error.description)
        } catch let failure as CheckFailure {
            return StepResult(name: name, asExpected: false, outcome: "wrong answer", detail: failure.description)
        } catch {
            return StepResult(name: name, asExpected: false, outcome: "failed", detail: "\(error)")
        }
    }

    /// `"Night Drive" by The Lumens, 3:35, from Night Lights (2021)`.
    static func describe(_ track: ExampleAPI.Track) -> String {
        let seconds = track.durationMs / 1000
        let length = "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
        let artists = track.artists.map(\.name).joined(separator: " & ")
        return "\"\(track.title)\" by \(artists), \(length), from \(track.release.title) "
            + "(\(track.release.releasedAt.prefix(4)))"
    }
}
