/// Whether sending a request more than once is safe, as its requestable declares it.
///
/// The retry policy only ever repeats a request whose retryability allows it. REST endpoints
/// default to `.automatic` (the idempotent methods GET, HEAD, PUT, DELETE, OPTIONS and TRACE);
/// a GraphQL query declares `.idempotent` although it is a POST; a mutation declares
/// `.idempotent` only when it carries an idempotency key that stays the same on every attempt
/// (the key is part of the built request, which every attempt encodes again unchanged), and
/// `.never` otherwise.
public enum Retryability: Sendable, Hashable, CustomStringConvertible {
    /// Retried when the method is idempotent (RFC 9110 §9.2.2).
    case automatic
    /// Safe to send again whatever the method.
    case idempotent
    /// Never sent more than once by the retry policy.
    case never

    /// Whether a request with this retryability and `method` may be sent again.
    public func allowsRetry(of method: HTTPMethod) -> Bool {
        switch self {
        case .automatic: method.isIdempotent
        case .idempotent: true
        case .never: false
        }
    }

    /// The case name.
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .idempotent: "idempotent"
        case .never: "never"
        }
    }
}
