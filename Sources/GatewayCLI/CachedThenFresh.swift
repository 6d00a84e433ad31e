import Gateway

/// `--cache-policy cache-and-network` on the command line: the cached answer (when there is
/// one), then the network's, and the command ends; `Provider.watch` would go on watching.
func cachedThenFresh<Element: Sendable>(_ load: @escaping @Sendable (CachePolicy) async throws -> Element)
    -> AsyncThrowingStream<Element, any Error>
{
    AsyncThrowingStream { continuation in
        let task = Task {
            do {
                // Nothing cached (or nothing readable): the network's answer alone.
                if let cached = try await Provider.cached(load) { continuation.yield(cached) }
                continuation.yield(try await load(.networkOnly))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}
