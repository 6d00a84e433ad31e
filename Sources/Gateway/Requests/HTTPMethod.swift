/// An HTTP request method.
///
/// An open set: the common methods are static members, and any other token can be made with
/// `HTTPMethod(rawValue:)`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent on the wire, in upper case.
    public let rawValue: String

    /// Creates a method from its token; the token is upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `TRACE`.
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// `CONNECT`.
    public static let connect = HTTPMethod(rawValue: "CONNECT")

    /// Whether the method is idempotent by RFC 9110 §9.2.2 (GET, HEAD, PUT, DELETE, OPTIONS, TRACE).
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// Whether the method is safe by RFC 9110 §9.2.1 (GET, HEAD, OPTIONS, TRACE).
    public var isSafe: Bool {
        switch rawValue {
        case "GET", "HEAD", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// The method token.
    public var description: String { rawValue }
}
