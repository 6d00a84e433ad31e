#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a step took, timed on the system's monotonic clock held as a plain number.
///
/// The pipeline times its steps across suspension points (the queue, the auth stage, the
/// transport, the cache). A `ContinuousClock.Instant` cannot be held that way cheaply: it is a
/// resilient type of the standard library, sized only at run time, so an async function
/// allocates every one it reads, even a temporary, on the task's allocator and copies it through
/// its metadata (see `InstantOffset`). A stopwatch keeps the uptime in nanoseconds, a value of
/// fixed size. It times durations only; deadlines stay on the provider's `TimeSource`.
struct Stopwatch: Sendable {
    /// The uptime, in nanoseconds, when the stopwatch started.
    private let started: UInt64

    /// A stopwatch started now.
    static func start() -> Stopwatch {
        Stopwatch(started: uptime())
    }

    /// The time since the stopwatch started.
    var elapsed: Duration {
        let now = Stopwatch.uptime()
        return .nanoseconds(Int64(clamping: now >= started ? now - started : 0))
    }

    /// The monotonic clock in nanoseconds, read with `clock_gettime` itself: `DispatchTime.now()`
    /// reads the same clock through two more calls, and a request reads it about fifteen times.
    private static func uptime() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}
