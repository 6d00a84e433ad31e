/// How urgently a request is dispatched by the request queue.
///
/// `PriorityRequestQueue` dispatches the most urgent waiting request first and, within one
/// priority, in the order the requests arrived; a waiting request gains urgency as it ages, so a
/// `low` one is never starved. A `blocker` holds every other request back until it finishes.
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

    /// The priority named `name` (`low`, `medium`, `high`, `veryHigh`, `blocker`), or `nil`.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }

    /// Whether `lhs` is less urgent than `rhs`.
    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The case name, as `gateway request --priority` takes it.
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
