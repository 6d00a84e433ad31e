import Foundation

/// Where the pipeline reads the time and waits: deadlines, retry back-off, `Retry-After` dates
/// and queue aging all go through one, so tests can replace real time with a clock they move.
///
/// Implementing one (a clock that never waits, for a test that only counts delays):
/// ```swift
/// struct Instantaneous: TimeSource {
///     var now: ContinuousClock.Instant { .now }
///     var date: Date { Date() }
///     func sleep(for duration: Duration) async throws { try Task.checkCancellation() }
/// }
/// ```
public protocol TimeSource: Sendable {
    /// The current instant on the monotonic clock deadlines are measured on.
    var now: ContinuousClock.Instant { get }

    /// The current wall-clock date, for HTTP dates such as `Retry-After`.
    var date: Date { get }

    /// Waits for `duration`.
    ///
    /// - Throws: `CancellationError` as soon as the waiting task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// Real time: `ContinuousClock` and the system's wall clock.
public struct SystemTimeSource: TimeSource {
    /// Creates the real time source.
    public init() {}

    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { ContinuousClock.now }

    /// The system's wall clock.
    public var date: Date { Date() }

    /// `Task.sleep(for:)` on the continuous clock.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration, clock: .continuous)
    }
}

extension TimeSource where Self == SystemTimeSource {
    /// Real time.
    public static var system: SystemTimeSource { SystemTimeSource() }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// A duration of `seconds`, clamped to ±100 years (so that a huge or non-finite value
    /// cannot trap when converted).
    static func seconds(clamping seconds: Double) -> Duration {
        let limit = 100.0 * 365 * 24 * 3600
        guard seconds.isFinite else { return seconds > 0 ? .seconds(Int64(limit)) : .zero }
        let bounded = min(max(seconds, -limit), limit)
        return .nanoseconds(Int64((bounded * 1e9).rounded()))
    }

    /// Milliseconds with one decimal, as logs show durations: `12.3 ms`.
    var millisecondsText: String {
        let value = (seconds * 10_000).rounded() / 10
        return "\(value) ms"
    }
}
