import Foundation

extension Provider {
    /// A live query (see `watch(_:)`): the cached value and the network's, then the entry's
    /// changes until the consuming task stops.
    ///
    /// - Parameters:
    ///   - watched: the request as it is watched, for its cache key.
    ///   - body: the response body of a value, so that a store of the same bytes again (the
    ///     watcher's own fetch among them) is not a change.
    ///   - load: sends the request with a cache policy.
    func watching<Element: Sendable>(
        _ watched: any Requestable, body: @escaping @Sendable (Element) -> Data,
        load: @escaping @Sendable (CachePolicy) async throws -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        let pipeline = self.pipeline
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    guard let cache = pipeline.cache, let key = try await pipeline.cacheKey(for: watched) else {
                        // Nothing to watch: the network's answer alone.
                        continuation.yield(try await load(.networkOnly))
                        continuation.finish()
                        return
                    }
                    // Watching starts before the first read, so that no change is missed.
                    let watch = cache.changes.watch(key)
                    defer { cache.changes.stopWatching(watch) }
                    var last: Data?
                    func emit(_ element: Element) {
                        last = body(element)
                        continuation.yield(element)
                    }
                    if let cached = try await Self.cached(load) { emit(cached) }
                    emit(try await load(.networkOnly))
                    for await change in watch.changes {
                        switch change {
                        case .stored:
                            if let cached = try await Self.cached(load), body(cached) != last { emit(cached) }
                        case .removed:
                            emit(try await load(.networkOnly))
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The stored value, or `nil` when nothing (readable) is stored: the first answer of a
    /// watcher, and of the command line's `cache-and-network`.
    package static func cached<Element>(_ load: @Sendable (CachePolicy) async throws -> Element) async throws
        -> Element?
    {
        do {
            return try await load(.cacheOnly)
        } catch let error as GatewayError where error.kind == .cacheMiss || error.kind == .cache {
            return nil
        }
    }
}
