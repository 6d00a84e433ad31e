import Foundation
import Gateway
import GatewayLoopback

/// The handlers of `ExampleBackend`'s REST side, as a `LoopbackRouter`.
struct ExampleRoutes: Sendable {
    let catalog: Locked<ExampleCatalog>
    let tokenLifetime: Duration
    let sessions: Locked<ExampleSessions>

    static let searchKinds = ["track", "artist", "release"]

    var router: LoopbackRouter {
        var router = LoopbackRouter { request in
            Self.error(404, "not_found", "no route for \(request.method) \(request.path)")
        }
        router.post("/auth/login") { request in login(request) }
        router.post("/auth/refresh") { request in refresh(request) }
        router.get("/me") { request in me(request) }
        router.get("/tracks/*") { request in tracks(request) }
        router.get("/search") { request in search(request) }
        return router
    }

    // MARK: Auth

    func login(_ request: LoopbackRequest) -> LoopbackResponse {
        guard let body = Self.decode(ExampleAPI.Login.self, from: request) else {
            return Self.error(400, "bad_request", "the body must be JSON {\"username\": …, \"password\": …}")
        }
        guard body.username == ExampleBackend.username, body.password == ExampleBackend.password else {
            return Self.error(401, "invalid_credentials", "the username or password is wrong")
        }
        sessions.withLock { $0.loginCount += 1 }
        return Self.json(issueSession(for: ExampleBackend.subject))
    }

    func refresh(_ request: LoopbackRequest) -> LoopbackResponse {
        guard let body = Self.decode(ExampleAPI.Refresh.self, from: request) else {
            return Self.error(400, "bad_request", "the body must be JSON {\"refresh_token\": …}")
        }
        let subject = sessions.withLock { state -> String? in
            guard let subject = state.refresh.removeValue(forKey: body.refreshToken) else { return nil }
            state.refreshCount += 1
            return subject
        }
        guard let subject else {
            return Self.error(401, "invalid_grant", "the refresh token is unknown or was already used")
        }
        return Self.json(issueSession(for: subject))
    }

    private func issueSession(for subject: String) -> ExampleAPI.Session {
        let access = "at-" + Self.randomHex(), refresh = "rt-" + Self.randomHex()
        sessions.withLock { state in
            state.access[access] = ExampleSessions.AccessToken(subject: subject, expires: state.now + tokenLifetime)
            state.refresh[refresh] = subject
        }
        let seconds = Int(tokenLifetime.components.seconds)
        return ExampleAPI.Session(accessToken: access, refreshToken: refresh, expiresIn: seconds, subject: subject)
    }

    /// `nil` when the request carries a live access token; otherwise the 401 to answer.
    private func unauthorized(_ request: LoopbackRequest) -> LoopbackResponse? {
        switch sessions.value.caller(authorization: request.headers["Authorization"]) {
        case .signedIn:
            return nil
        case .anonymous:
            return Self.error(401, "unauthorized", "this needs Authorization: Bearer <access token>",
                              headers: ["WWW-Authenticate": "Bearer"])
        case .refused(let code, let message):
            return Self.error(401, code, message, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])
        }
    }

    func me(_ request: LoopbackRequest) -> LoopbackResponse {
        if let refusal = unauthorized(request) { return refusal }
        let listener = catalog.value.listener
        return Self.json(ExampleAPI.Profile(id: listener.id, displayName: listener.displayName, plan: listener.plan,
                                            likedCount: listener.likes.count), headers: ["Cache-Control": "no-store"])
    }

    // MARK: Catalog

    func tracks(_ request: LoopbackRequest) -> LoopbackResponse {
        let rest = request.decodedPath.dropFirst("/tracks/".count)
            .split(separator: "/", omittingEmptySubsequences: false)
        guard let id = rest.first.map(String.init), !id.isEmpty, rest.count <= 2 else {
            return Self.error(404, "not_found", "no route for GET \(request.path)")
        }
        if rest.count == 2 {
            guard rest[1] == "stream" else { return Self.error(404, "not_found", "no route for GET \(request.path)") }
            if let refusal = unauthorized(request) { return refusal }
        }
        let catalog = catalog.value
        guard let track = catalog.track(id: id) else {
            return Self.error(404, "not_found", "there is no track with id \(id.prefix(40))")
        }
        if rest.count == 2 {
            let host = request.headers["Host"] ?? "127.0.0.1"
            let link = ExampleAPI.StreamLink(url: "http://\(host)/media/\(track.id).m4a?sig=\(Self.randomHex())",
                                             expiresIn: 300)
            return Self.json(link, headers: ["Cache-Control": "no-store"])
        }
        return Self.json(trackBody(track, in: catalog), headers: ["Cache-Control": "max-age=60"])
    }

    func trackBody(_ track: ExampleCatalog.Track, in catalog: ExampleCatalog) -> ExampleAPI.Track {
        let artists = track.artistIDs.compactMap { catalog.artist(id: $0) }
            .map { ExampleAPI.ArtistSummary(id: $0.id, name: $0.name) }
        let release = catalog.release(id: track.releaseID).map {
            ExampleAPI.ReleaseSummary(id: $0.id, title: $0.title, kind: $0.kind, releasedAt: $0.releasedAt)
        } ?? ExampleAPI.ReleaseSummary(id: track.releaseID, title: "", kind: "ALBUM", releasedAt: "")
        return ExampleAPI.Track(
            id: track.id, title: track.title, durationMs: track.durationMs, trackNumber: track.trackNumber,
            explicit: track.explicit, playCount: track.playCount, genres: track.genres, artists: artists,
            release: release)
    }

    func search(_ request: LoopbackRequest) -> LoopbackResponse {
        guard let text = request.queryValue("q"), !text.isEmpty else {
            return Self.error(400, "missing_query", "give the search text as ?q=…")
        }
        let kinds = request.queryValues("kinds[]") + request.queryValues("kinds")
        if let unknown = kinds.first(where: { !Self.searchKinds.contains($0.lowercased()) }) {
            return Self.error(400, "invalid_kind", "unknown kind '\(unknown.prefix(40))'; use "
                              + Self.searchKinds.joined(separator: ", "))
        }
        let first = request.queryValue("first").flatMap(Int.init) ?? 10
        let hits = catalog.value.search(text, kinds: kinds, first: min(max(first, 0), 50)).map { hit in
            switch hit {
            case .track(let track): ExampleAPI.SearchResults.Hit(kind: "track", id: track.id, name: track.title)
            case .artist(let artist): ExampleAPI.SearchResults.Hit(kind: "artist", id: artist.id, name: artist.name)
            case .release(let release):
                ExampleAPI.SearchResults.Hit(kind: "release", id: release.id, name: release.title)
            }
        }
        return Self.json(ExampleAPI.SearchResults(query: text, kinds: kinds, results: hits))
    }

    // MARK: JSON

    static func decode<T: Decodable>(_ type: T.Type, from request: LoopbackRequest) -> T? {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(T.self, from: request.body)
    }

    static func json(_ value: some Encodable, status: Int = 200, headers: LoopbackHeaders = [:]) -> LoopbackResponse {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return .text("the backend could not encode its answer\n", status: 500)
        }
        return .data(body, contentType: "application/json", status: status, headers: headers)
    }

    static func error(_ status: Int, _ code: String, _ message: String, headers: LoopbackHeaders = [:])
        -> LoopbackResponse
    {
        json(ExampleAPI.ErrorBody(error: .init(code: code, message: message)), status: status, headers: headers)
    }

    static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}
