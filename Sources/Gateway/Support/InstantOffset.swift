import Foundation

/// A `ContinuousClock.Instant` held as its offset from one instant of reference.
///
/// `ContinuousClock.Instant` is a resilient type of the standard library: its size is known
/// only at run time, and so is the size of every value that holds one. Async code allocates
/// such a value on the task's stack, and copies it through its metadata, wherever it lives
/// across a suspension point: for a request and its context, about sixty allocations per
/// request. A `Duration` has a fixed size, so `HTTPRequest` and `RequestContext` keep their
/// instants as this offset and hand them out as `ContinuousClock.Instant`.
struct InstantOffset: Sendable, Hashable {
    /// The instant every offset counts from: the first one taken here.
    private static let reference = ContinuousClock.now

    /// The instant's distance from `reference` (negative before it).
    private let offset: Duration

    init(_ instant: ContinuousClock.Instant) {
        offset = Self.reference.duration(to: instant)
    }

    /// The instant itself.
    var instant: ContinuousClock.Instant { Self.reference.advanced(by: offset) }
}
