import Foundation

extension URLSessionTransport {
    /// What a transport's bodies held back, across its exchanges: the most unread bytes one body
    /// held, how often a body was ended at the buffer limit and continued with a range, and the
    /// pieces the platform delivered for tasks already ended (dropped). Read by tests and benchmarks.
    package final class BufferStatistics: Sendable {
        package struct Values: Sendable, Hashable {
            /// The most bytes one body held unread at a time.
            package var peakBuffered = 0
            /// Exchanges ended at the buffer limit.
            package var pauses = 0
            /// Requests for the rest answered with the bytes asked for.
            package var resumptions = 0
            /// Pieces (and their bytes) that arrived for an exchange already ended or paused.
            package var ignoredPieces = 0
            package var ignoredBytes = 0
        }

        private struct State {
            var values = Values()
            var pauseWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        }

        private let state = Locked(State())

        /// The values so far.
        package var current: Values { state.withLock { $0.values } }

        /// Returns once `count` exchanges in all have been ended at the buffer limit (a test's gate).
        func pauses(reaching count: Int) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let reached = state.withLock { state in
                    if state.values.pauses >= count { return true }
                    state.pauseWaiters.append((count, continuation))
                    return false
                }
                if reached { continuation.resume() }
            }
        }

        func notePeak(_ buffered: Int) {
            state.withLock { $0.values.peakBuffered = max($0.values.peakBuffered, buffered) }
        }

        func notePause() {
            let reached = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.values.pauses += 1
                let pauses = state.values.pauses
                defer { state.pauseWaiters.removeAll { $0.count <= pauses } }
                return state.pauseWaiters.filter { $0.count <= pauses }.map(\.continuation)
            }
            for waiter in reached { waiter.resume() }
        }

        func noteResumption() { state.withLock { $0.values.resumptions += 1 } }

        func noteIgnored(_ bytes: Int) {
            state.withLock {
                $0.values.ignoredPieces += 1
                $0.values.ignoredBytes += bytes
            }
        }
    }
}
