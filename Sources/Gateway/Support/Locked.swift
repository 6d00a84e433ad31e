#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a lock: one lock around one piece of mutable state.
///
/// The state and its mutex live in one allocation (a `ManagedBuffer` whose header is the state
/// and whose one element is the mutex), so making a `Locked` costs one allocation; a copy of a
/// `Locked` shares the state and the lock.
///
/// `@unchecked Sendable` is sound here because every access to the state goes through
/// `withLock`, which holds the mutex for the whole closure, and the closure cannot `await` (it
/// is synchronous). Never call back into code that may take the same lock from inside `withLock`.
package struct Locked<State>: @unchecked Sendable {
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    /// Creates the guarded value.
    package init(_ state: State) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in state }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
        // `create` makes an instance of the class it is called on.
        storage = unsafeDowncast(buffer, to: Storage.self)
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }

    /// A copy of the current state.
    package var value: State { withLock { $0 } }
}
