import Gateway

/// Values built once per process, by key, however many tests ask at the same moment: the first
/// asker builds the value on the lane and the others wait for it.
///
/// A suite keeps one in a `static let` (`static let schemas = OnceCache<String, SchemaBuildResult>()`)
/// and asks it with `try await Self.schemas.value(for: id) { try buildSchema(id) }`. A build that
/// throws is remembered too: every asker of that key gets the same error.
package final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let tasks = Locked<[Key: Task<Value, any Error>]>([:])

    /// Creates an empty cache.
    package init() {}

    /// The value for `key`, built by `make` on the lane the first time it is asked for.
    /// - Parameters:
    ///   - key: Which value.
    ///   - make: Builds the value; called at most once per key.
    /// - Returns: The value.
    /// - Throws: What `make` threw when it built this key's value.
    package func value(for key: Key, make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = tasks.withLock { tasks in
            if let existing = tasks[key] { return existing }
            let task = Task { try await OffPool.run { try await make() } }
            tasks[key] = task
            return task
        }
        return try await task.value
    }
}
