import Foundation

/// A request's identity within its provider: a number that grows with each request.
public struct RequestID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number.
    public let rawValue: UInt64
    /// Creates an identifier.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    /// Whether `lhs` was created before `rhs`.
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `#12`.
    public var description: String { "#\(rawValue)" }
}

/// What every stage, interceptor and observer knows about the request in hand.
public struct RequestContext: Sendable, CustomStringConvertible {
    /// The request's identity.
    public let id: RequestID
    /// The endpoint or operation name: `GET users/42`.
    public internal(set) var name: String
    /// The provider's base URL (the origin credentials belong to).
    public let baseURL: URL
    /// The attempt in progress, from 1; `0` before the first attempt is encoded.
    public internal(set) var attempt: Int
    /// When `send` started.
    public var startedAt: ContinuousClock.Instant { started.instant }
    /// When the whole call must end, if it has a deadline.
    public internal(set) var deadline: ContinuousClock.Instant? {
        get { deadlineOffset?.instant }
        set { deadlineOffset = newValue.map(InstantOffset.init) }
    }
    /// The dispatch priority.
    public internal(set) var priority: RequestPriority
    /// Whether the request wants credentials.
    public internal(set) var requiresAuthentication: Bool
    /// Whether the request renews the session's credential (sent by an `Authenticator` through
    /// its `RefreshClient`): it skips the auth stage and is queued as a `blocker`.
    public internal(set) var isCredentialRefresh: Bool
    /// `startedAt` and `deadline` as values of fixed size (see `InstantOffset`): the steps pass
    /// the deadline on as it is held.
    private let started: InstantOffset
    private(set) var deadlineOffset: InstantOffset?

    /// Creates a context (for testing stages, interceptors and observers on their own).
    public init(
        id: RequestID, name: String, baseURL: URL, attempt: Int = 0,
        startedAt: ContinuousClock.Instant = .now, deadline: ContinuousClock.Instant? = nil,
        priority: RequestPriority = .medium, requiresAuthentication: Bool = true, isCredentialRefresh: Bool = false
    ) {
        self.id = id
        self.name = name
        self.baseURL = baseURL
        self.attempt = attempt
        started = InstantOffset(startedAt)
        deadlineOffset = deadline.map(InstantOffset.init)
        self.priority = priority
        self.requiresAuthentication = requiresAuthentication
        self.isCredentialRefresh = isCredentialRefresh
    }

    /// Time since `send` started.
    public var elapsed: Duration { ContinuousClock.now - startedAt }

    /// `#12 GET users/42 (attempt 1)`.
    public var description: String { "\(id) \(name) (attempt \(attempt))" }
}
