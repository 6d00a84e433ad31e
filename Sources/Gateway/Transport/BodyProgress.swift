/// Where a transport reports how much of a request's body it has sent: `HTTPRequest.bodyProgress`,
/// which an upload (`Provider.upload(_:)`) sets.
///
/// A transport that can tell calls `sent(_:of:)` as the body goes out, with the running total
/// (`URLSessionTransport` does; a transport that cannot tell may never call it). Two values are
/// equal only when they are the same reporter.
///
/// A transport reporting it:
/// ```swift
/// struct CountingTransport: Transport {
///     func send(_ request: HTTPRequest) async throws -> StreamedResponse {
///         let length = request.body?.length ?? 0
///         request.bodyProgress?.sent(length, of: length)
///         return StreamedResponse(HTTPResponse(status: 204, url: request.url))
///     }
/// }
/// ```
public final class BodyProgress: Sendable, Hashable {
    private let report: @Sendable (_ sent: Int64, _ expected: Int64?) -> Void

    /// A reporter that hands each running total to `report`.
    ///
    /// - Parameter report: called with the bytes of the body sent so far and the body's length
    ///   when the transport knows it; from the transport's threads, so it must be quick.
    public init(_ report: @escaping @Sendable (_ sent: Int64, _ expected: Int64?) -> Void) {
        self.report = report
    }

    /// Reports that `sent` bytes of the body have gone out so far.
    ///
    /// - Parameters:
    ///   - sent: the running total.
    ///   - expected: the body's length, when known.
    public func sent(_ sent: Int64, of expected: Int64?) { report(sent, expected) }

    public static func == (lhs: BodyProgress, rhs: BodyProgress) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
