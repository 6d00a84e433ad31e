import Foundation
import Gateway
import GatewayDemoBackend
import MusicOperations

/// The scripted session of `gateway demo`: one `Provider` against the example backend, with the
/// file token store, the refresh-token authenticator and the SQLite response cache, REST and
/// GraphQL through the same pipeline. Each step checks what it got back. The GraphQL operations
/// are the types generated from `Queries/` (the `MusicOperations` target): typed variables and
/// typed data, the cover upload included.
///
/// The scene: log in over REST; fetch GraphQL queries (a miss, then a hit of the same query);
/// the backend expires the access token and five concurrent requests, REST and GraphQL mixed,
/// are refused and replayed after exactly one refresh; a mutation invalidates a cached query,
/// whose re-fetch is a miss with the new data; a playlist is created and given a cover by a
/// multipart upload; a stream URL comes over REST.
struct DemoScript: Sendable {
    /// One line of the table: a request the script made, or one the provider made for it.
    struct Row: Sendable {
        /// `REST` or `GraphQL`.
        var kind: String
        var name: String
        /// The status code, or `-` when no response came.
        var status: String
        /// `hit`, `miss`, or `-` when the cache was not consulted.
        var cache: String
        /// Transport attempts, with the auth replays among them: `2 (1 replay)`.
        var attempts: String
        var time: Duration
        var startedAt: ContinuousClock.Instant
        var asExpected: Bool
    }

    /// How one step went.
    struct StepResult: Sendable {
        var name: String
        var asExpected: Bool
        /// One line for a person: what came back, or what went wrong.
        var detail: String
    }

    /// A value that is not what the backend should have answered.
    struct CheckFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    let provider: Provider
    let backend: ExampleBackend
    let recorder: DemoRecorder
    let table = Locked<[Row]>([])

    /// A script against `backend` through `provider`.
    init(provider: Provider, backend: ExampleBackend, recorder: DemoRecorder) {
        self.provider = provider
        self.backend = backend
        self.recorder = recorder
    }

    /// The rows of every request so far, the token refreshes included, in the order they started.
    var rows: [Row] {
        let refreshes = recorder.refreshes.map { record in
            Row(kind: "REST", name: "token refresh", status: record.status.map(String.init) ?? "-", cache: "-",
                attempts: Self.attempts(record.metrics), time: record.metrics.total, startedAt: record.startedAt,
                asExpected: record.status == 200)
        }
        return (table.value + refreshes).sorted { $0.startedAt < $1.startedAt }
    }

    /// Runs every step in order; a step that fails does not stop the ones after it.
    func run() async -> [StepResult] {
        var results: [StepResult] = []
        results.append(await step("log in over REST") {
            let signIn = try await send("login", Endpoint<ExampleAPI.SignIn>.post(
                "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username,
                                                     password: ExampleBackend.password)).withoutAuthentication())
            guard let coordinator = provider.tokenCoordinator else {
                throw CheckFailure("the provider has no token store")
            }
            try await coordinator.save(signIn.tokens.credential(subject: signIn.subject))
            let minutes = (signIn.tokens.expiresIn?.components.seconds ?? 0) / 60
            return "signed in as \(signIn.subject); the access token lasts \(minutes) minutes"
        })
        results.append(await step("fetch Me") {
            let me = try await fetch("Me", MeQuery(), expect: .miss).data.me
            return "\(me.displayName) (\(me.plan.rawValue))"
        })
        results.append(await step("fetch GetTrack twice") {
            let first = try await fetch("GetTrack id=1", GetTrackQuery(id: "1"), tags: ["Track:1"], expect: .miss)
            let second = try await fetch("GetTrack id=1", GetTrackQuery(id: "1"), tags: ["Track:1"], expect: .hit)
            guard first.httpResponse.body == second.httpResponse.body else {
                throw CheckFailure("the cached answer differs from the first one")
            }
            return "\(Self.describeTrack(first.data)): a miss, then the same answer from the cache"
        })
        results.append(await step("fetch GetTrack id=4") {
            let track = try await fetch("GetTrack id=4", GetTrackQuery(id: "4"), tags: ["Track:4"], expect: .miss).data
            return "\(Self.describeTrack(track)), liked: \(track.track?.isLiked == true)"
        })
        results.append(await step("search") {
            let found = try await fetch("Search \"light\"", SearchQuery(text: "light", first: 5), expect: .miss)
            let names = found.data.search.map { hit in
                let name = hit.asTrack?.trackSummary.title ?? hit.asRelease?.releaseSummary.title
                    ?? hit.asArtist?.artistSummary.name ?? "?"
                return "\(name) (\(hit.__typename))"
            }
            guard !names.isEmpty else { throw CheckFailure("the search for \"light\" found nothing") }
            return names.joined(separator: ", ")
        })
        results.append(await step("fetch a track over REST twice") {
            let first = try await send("GET tracks/6", Endpoint<ExampleAPI.Track>.get("tracks/6"), expect: .miss)
            let second = try await send("GET tracks/6", Endpoint<ExampleAPI.Track>.get("tracks/6"), expect: .hit)
            guard first.title == second.title else { throw CheckFailure("the cached track differs from the first") }
            return "\"\(first.title)\": a miss, then a hit (the backend said Cache-Control: max-age=60)"
        })
        results.append(await step("fetch MyCollection") {
            let collection = try await fetch("MyCollection", MyCollectionQuery(), expect: .miss).data
            return "\(collection.me.collection.likedTracks.totalCount) liked tracks"
        })
        results.append(await step("expire the access token") {
            let expired = backend.expireAccessTokens()
            guard expired == 1 else { throw CheckFailure("expected 1 live access token, found \(expired)") }
            return "the backend's clock moved past its expiry; the client still holds it"
        })
        results.append(await step("5 requests at once") { try await concurrentRequests() })
        results.append(contentsOf: await changes())
        results.append(await step("stream URL over REST") {
            let link = try await send("stream URL track 4", Endpoint<ExampleAPI.StreamLink>.get("tracks/4/stream"))
            guard let url = URL(string: link.url) else { throw CheckFailure("not a URL: \(link.url)") }
            return "\(url.path), signed, valid for \(link.expiresIn / 60) minutes"
        })
        return results
    }

    /// The expired token meets five requests at once, REST and GraphQL mixed: one refresh, and
    /// every refused request replayed with the new token.
    private func concurrentRequests() async throws -> String {
        let before = backend.refreshCount
        let rowsBefore = table.value.count
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await fetch("GetArtist id=1", GetArtistQuery(id: "1"), expect: .miss) }
            group.addTask { _ = try await fetch("GetRelease id=10", GetReleaseQuery(id: "10"), expect: .miss) }
            group.addTask { _ = try await fetch("GetPlaylist id=p1", GetPlaylistQuery(id: "p1"), expect: .miss) }
            group.addTask { _ = try await send("profile", Endpoint<ExampleAPI.Profile>.get("me")) }
            group.addTask {
                _ = try await send("stream URL track 2", Endpoint<ExampleAPI.StreamLink>.get("tracks/2/stream"))
            }
            try await group.waitForAll()
        }
        let refreshes = backend.refreshCount - before
        guard refreshes == 1 else { throw CheckFailure("the backend saw \(refreshes) refreshes, not 1") }
        let replayed = table.value.dropFirst(rowsBefore).filter { $0.attempts.contains("replay") }.count
        return "all 5 succeeded: 1 refresh, \(replayed) refused with the old token and replayed"
    }
}
