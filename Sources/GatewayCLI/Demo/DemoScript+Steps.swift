import Foundation
import Gateway
import GatewayDemoBackend
import MusicOperations

extension DemoScript {
    /// The mutations: a like that invalidates the cached track (by its tag) and the cached search
    /// (by the `__typename` its answer names), then a playlist and its cover.
    func changes() async -> [StepResult] {
        var results: [StepResult] = []
        results.append(await step("like track 4") {
            let liked = try await fetch("LikeTrack id=4", LikeTrackMutation(input: LikeTrackInput(trackID: "4")))
                .data.likeTrack
            guard liked.track.isLiked else { throw CheckFailure("the track is not liked after LikeTrack") }
            let removed = try await provider.invalidateCache(.tag("Track:4"))
            guard removed == 1 else { throw CheckFailure("expected 1 cached entry tagged Track:4, found \(removed)") }
            return "\(liked.likedCount) liked tracks; invalidated: GetTrack id=4 (by its tag), Search (by type Track)"
        })
        results.append(await step("fetch GetTrack id=4 again") {
            let track = try await fetch("GetTrack id=4", GetTrackQuery(id: "4"), tags: ["Track:4"], expect: .miss).data
            guard track.track?.isLiked == true else {
                throw CheckFailure("GetTrack still says track 4 is not liked: the cache served the old answer")
            }
            return "a miss after the mutation invalidated it: liked: true"
        })
        results.append(await step("search again") {
            try await fetch("Search \"light\"", SearchQuery(text: "light", first: 5), expect: .miss)
            return "a miss: it held a Track, so the mutation invalidated it by type"
        })
        results.append(await step("create a playlist") {
            let made = try await fetch("CreatePlaylist", CreatePlaylistMutation(name: "Demo Mix", isPublic: true))
                .data.createPlaylist
            guard !made.id.isEmpty else { throw CheckFailure("no playlist id") }
            return "\"\(made.name)\" is playlist \(made.id)"
        })
        results.append(await step("upload its cover") {
            let upload = GraphQLUpload.data(Self.coverImage(width: 300, height: 300), filename: "cover.png",
                                            contentType: "image/png")
            let mutation = UploadPlaylistCoverMutation(playlistID: "p2", image: upload)
            let changed = try await fetch("UploadPlaylistCover", mutation)
            guard let cover = changed.data.uploadPlaylistCover.cover else {
                throw CheckFailure("the playlist has no cover")
            }
            return "sent as a multipart upload; the cover is \(cover.width)×\(cover.height)"
        })
        return results
    }

    // MARK: Requests

    /// Fetches a generated operation, records its row, and checks the cache outcome when
    /// `expect` is given.
    ///
    /// - Returns: the response, its `data` typed by the operation.
    /// - Throws: the request's error, or `CheckFailure` when the response has errors or an
    ///   unexpected cache outcome.
    @discardableResult
    func fetch<Operation: GraphQLOperationType>(_ label: String, _ operation: Operation, tags: [String] = [],
                                                expect: CacheOutcome? = nil)
        async throws -> GraphQLResponse<Operation.Data> {
        let started = ContinuousClock.now
        var options = GraphQLRequestOptions()
        options.cache.tags = tags
        do {
            let response = try await provider.fetch(operation, options: options)
            var row = Row(kind: "GraphQL", name: label, status: "\(response.status)",
                          cache: Self.describe(response.metrics.cacheOutcome),
                          attempts: Self.attempts(response.metrics), time: response.metrics.total,
                          startedAt: started, asExpected: true)
            var failure: CheckFailure?
            if let error = response.errors.first {
                failure = CheckFailure("the response has \(response.errors.count) error(s): \(error.message)")
            } else if let expect, response.metrics.cacheOutcome != expect {
                failure = CheckFailure("expected a cache \(expect), got \(response.metrics.cacheOutcome)")
            }
            row.asExpected = failure == nil
            table.withLock { $0.append(row) }
            if let failure { throw failure }
            return response
        } catch let error as GatewayError {
            table.withLock { $0.append(Self.failedRow("GraphQL", label, error, started)) }
            throw error
        }
    }

    /// Sends a REST endpoint labelled `label`, with the API's error body decoded into failures,
    /// and records its row.
    func send<Value>(_ label: String, _ endpoint: Endpoint<Value>, expect: CacheOutcome? = nil) async throws
        -> Value
    {
        let started = ContinuousClock.now
        let labelled = endpoint.apiError(ExampleAPI.ErrorBody.self).with { $0.label = label }
        do {
            let response = try await provider.send(labelled)
            let outcome = response.metrics.cacheOutcome
            let asExpected = expect.map { $0 == outcome } ?? true
            table.withLock {
                $0.append(Row(kind: "REST", name: label, status: "\(response.status)", cache: Self.describe(outcome),
                              attempts: Self.attempts(response.metrics), time: response.metrics.total,
                              startedAt: started, asExpected: asExpected))
            }
            if let expect, !asExpected { throw CheckFailure("expected a cache \(expect), got \(outcome)") }
            return response.value
        } catch let error as GatewayError {
            table.withLock { $0.append(Self.failedRow("REST", label, error, started)) }
            throw error
        }
    }

    /// Runs one step and turns what it threw into a result.
    func step(_ name: String, _ body: () async throws -> String) async -> StepResult {
        do {
            return StepResult(name: name, asExpected: true, detail: try await body())
        } catch let error as GatewayError {
            let body = error.apiError(as: ExampleAPI.ErrorBody.self)?.error
            let what = body.map { "API error \($0.code): \($0.message)" } ?? error.description
            return StepResult(name: name, asExpected: false, detail: what)
        } catch {
            return StepResult(name: name, asExpected: false, detail: "\(error)")
        }
    }

    // MARK: Formatting

    private static func failedRow(_ kind: String, _ label: String, _ error: GatewayError,
                                  _ started: ContinuousClock.Instant) -> Row {
        Row(kind: kind, name: label, status: error.status.map(String.init) ?? "-", cache: "-", attempts: "-",
            time: .now - started, startedAt: started, asExpected: false)
    }

    /// `hit`, `miss`, or `-` when the cache was not consulted.
    static func describe(_ outcome: CacheOutcome) -> String {
        outcome == .notConsulted ? "-" : outcome.rawValue
    }

    /// `1`, or `2 (1 replay)` when the token coordinator replayed the request.
    static func attempts(_ metrics: RequestMetrics) -> String {
        metrics.authReplays == 0 ? "\(metrics.attempts)"
            : "\(metrics.attempts) (\(metrics.authReplays) replay\(metrics.authReplays == 1 ? "" : "s"))"
    }

    /// `"Night Drive" by The Lumens`.
    static func describeTrack(_ data: GetTrackQuery.Data) -> String {
        let summary = data.track?.trackSummary
        let artists = (summary?.artists ?? []).map(\.artistSummary.name)
        return "\"\(summary?.title ?? "?")\" by \(artists.joined(separator: " & "))"
    }

    /// The header of a PNG image of this size: enough for the backend, which reads only that.
    static func coverImage(width: Int, height: Int) -> Data {
        func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += bigEndian(13) + Array("IHDR".utf8) + bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        bytes += [0, 0, 0, 0] + bigEndian(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return Data(bytes)
    }
}
