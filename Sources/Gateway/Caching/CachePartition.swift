/// Whose data a cache entry is: the subject of the credential that fetched it, or nobody.
///
/// Every key includes its partition, so an entry written for one user is never found by a
/// request of another user or by an anonymous request. Anonymous is a partition of its own:
/// it is not the same as a subject whose identifier is empty or reads "anonymous".
public struct CachePartition: Sendable, Hashable, CustomStringConvertible {
    /// The credential's subject (a user identifier), or `nil` for anonymous requests.
    public let subject: String?

    /// Creates a partition for `subject`; `nil` is the anonymous partition.
    public init(subject: String?) { self.subject = subject }

    /// Requests made without credentials.
    public static let anonymous = CachePartition(subject: nil)

    /// The partition of one credential subject.
    ///
    /// - Parameter subject: the subject identifier, such as a user id from the token.
    public static func subject(_ subject: String) -> CachePartition { CachePartition(subject: subject) }

    /// Whether this is the anonymous partition.
    public var isAnonymous: Bool { subject == nil }

    /// `anonymous`, or `subject:` and the subject identifier.
    public var description: String { subject.map { "subject:\($0)" } ?? "anonymous" }
}
