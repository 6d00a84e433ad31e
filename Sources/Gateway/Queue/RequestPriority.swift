/// How urgently a request is dispatched by the request queue.
///
/// The pass-through queue of this release dispatches everything at once; the priority is carried
/// through the pipeline so that a priority queue can order by it.
public enum RequestPriority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Prefetching and other work nobody waits for.
    case low
    /// The default.
    case medium
    /// Work the user is waiting for.
    case high
    /// Work that must go before everything the user waits for.
    case veryHigh
    /// Holds the dispatch of every other request until it finishes (a token refresh).
    case blocker

    /// Whether `lhs` is less urgent than `rhs`.
    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The case name.
    public var description: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        case .veryHigh: "veryHigh"
        case .blocker: "blocker"
        }
    }
}
