/// A WebSocket close code (RFC 6455 section 7.4): an open set of static members.
///
/// Codes 4000–4999 are for applications: the GraphQL over WebSocket protocol's are among the
/// members (`.unauthorized`, `.forbidden`, `.badRequest`, …).
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `1000`: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// `1001`: the endpoint is going away (a server shutting down, a page left).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// `1002`: a protocol error.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// `1003`: a data type the endpoint cannot accept (binary, here).
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// `1005`: the close frame carried no code (never sent).
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// `1006`: the connection dropped without a close frame (never sent).
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// `1007`: a text message that is not UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// `1008`: a message that violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// `1009`: a message larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// `1011`: the server met an unexpected condition.
    public static let internalServerError = WebSocketCloseCode(rawValue: 1011)

    /// `4400`: a message the GraphQL over WebSocket protocol does not allow.
    public static let badRequest = WebSocketCloseCode(rawValue: 4400)
    /// `4401`: the connection is not authenticated (a refused token, or a subscribe before
    /// `connection_ack`).
    public static let unauthorized = WebSocketCloseCode(rawValue: 4401)
    /// `4403`: the server refused the connection (its `connection_init` check said no).
    public static let forbidden = WebSocketCloseCode(rawValue: 4403)
    /// `4406`: the server does not speak the subprotocol offered.
    public static let subprotocolNotAcceptable = WebSocketCloseCode(rawValue: 4406)
    /// `4408`: no `connection_init` arrived in time.
    public static let connectionInitialisationTimeout = WebSocketCloseCode(rawValue: 4408)
    /// `4409`: a subscription of that id exists already.
    public static let subscriberAlreadyExists = WebSocketCloseCode(rawValue: 4409)
    /// `4429`: more than one `connection_init`.
    public static let tooManyInitialisationRequests = WebSocketCloseCode(rawValue: 4429)
    /// `4500`: the GraphQL server failed.
    public static let graphQLServerError = WebSocketCloseCode(rawValue: 4500)
    /// `4504`: no `connection_ack` arrived in time (sent by the client).
    public static let connectionAcknowledgementTimeout = WebSocketCloseCode(rawValue: 4504)

    /// The number.
    public var description: String { String(rawValue) }
}
