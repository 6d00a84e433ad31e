#if canImport(Testing)
import Foundation
import Gateway
import Testing

/// The end-to-end checks every `Transport` must pass, against `LoopbackServer` on 127.0.0.1:
/// round trips, bodies as they stream, redirects and their origin rules, limits, faults and
/// cancellation, both
/// through the transport alone and under a `Provider`.
///
/// A transport's test suite runs them all with one parameterized test:
///
/// ```swift
/// @Suite struct MyTransportConformanceTests {
///     @Test(arguments: TransportConformance.Check.allCases)
///     func conforms(to check: TransportConformance.Check) async throws {
///         try await TransportConformance { settings in
///             MyTransport(timeout: settings.timeout, maxRedirects: settings.maxRedirects)
///         }.run(check)
///     }
/// }
/// ```
///
/// Each check makes the transports it needs with `makeTransport` and hands each to `shutdown`
/// when done, so a transport that owns resources (an event loop group, a connection pool) can
/// release them. Failures are recorded with `#expect` at the check's own line. Checks that give
/// real timeouts to a real server run one at a time, each once the machine's thread pool is
/// quiet, so a suite needs no trait of its own to run them on a busy machine.
public struct TransportConformance: Sendable {
    /// What a check asks of the transport it makes.
    public struct Settings: Sendable, Hashable {
        /// The idle timeout used when a request sets none.
        public var timeout: Duration
        /// How many redirects one call may follow.
        public var maxRedirects: Int

        /// Creates settings.
        public init(timeout: Duration = .seconds(60), maxRedirects: Int = 20) {
            self.timeout = timeout
            self.maxRedirects = maxRedirects
        }
    }

    /// Makes a transport configured as `Settings` say, with its other defaults.
    public typealias MakeTransport = @Sendable (Settings) async throws -> any Transport
    /// Releases a transport made by `MakeTransport`.
    public typealias Shutdown = @Sendable (any Transport) async throws -> Void

    private let makeTransport: MakeTransport
    private let shutdown: Shutdown

    /// Creates the checks for one kind of transport.
    ///
    /// - Parameters:
    ///   - shutdown: releases a transport after a check (nothing by default).
    ///   - makeTransport: makes a fresh transport for a check.
    public init(shutdown: @escaping Shutdown = { _ in }, makeTransport: @escaping MakeTransport) {
        self.makeTransport = makeTransport
        self.shutdown = shutdown
    }

    /// Runs one check.
    ///
    /// - Parameter check: which behaviour to check.
    /// - Throws: whatever the check's setup throws (a failed expectation is recorded, not thrown,
    ///   unless it is a `#require`).
    public func run(_ check: Check) async throws {
        try await QuietScheduler.inTurn {
            switch check.area {
            case .roundTrip: try await runRoundTrip(check)
            case .streaming: try await runStreaming(check)
            case .fault: try await runFault(check)
            case .redirect: try await runRedirect(check)
            case .provider: try await runProvider(check)
            case .transfer: try await runTransfer(check)
            }
        }
    }

    /// Runs `body` with a fresh transport, then shuts the transport down, whether `body` threw or not.
    func withTransport<T>(
        _ settings: Settings = Settings(), _ body: (any Transport) async throws -> T
    ) async throws -> T {
        let transport = try await makeTransport(settings)
        do {
            let result = try await body(transport)
            try await shutdown(transport)
            return result
        } catch {
            try? await shutdown(transport)
            throw error
        }
    }

    /// Sends `request` through `transport` and reads the whole body, as the pipeline does.
    static func collect(_ transport: any Transport, _ request: HTTPRequest) async throws -> HTTPResponse {
        try await transport.send(request).collect(upTo: request.maxResponseBytes)
    }

    /// A request to a path on the server, with generous limits unless given.
    ///
    /// - Parameters:
    ///   - server: the loopback server.
    ///   - path: the path on it, such as `/status/204`.
    /// - Returns: the request; the other parameters are its fields.
    public static func request(
        _ server: LoopbackServer,
        _ path: String,
        method: HTTPMethod = .get,
        headers: HTTPHeaders = [:],
        body: HTTPRequest.Body? = nil,
        timeout: Duration? = .seconds(30),
        deadline: ContinuousClock.Instant? = nil,
        maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes
    ) throws -> HTTPRequest {
        HTTPRequest(
            method: method, url: try server.url(path), headers: headers, body: body,
            timeout: timeout, deadline: deadline, maxResponseBytes: maxResponseBytes
        )
    }

    /// A server that answers every request with the first 4,096 of 8,192 bytes and then sends
    /// nothing for two minutes: what the checks that end an exchange midway read from.
    static func stallingServer(seed: UInt64) throws -> LoopbackServer {
        try LoopbackServer { _ in
            .data(bytes(8_192, seed: seed)).with(fault: .throttleBody(chunk: 4_096, every: .seconds(120)))
        }
    }

    /// Deterministic pseudo-random bytes covering every byte value.
    ///
    /// - Parameters:
    ///   - count: how many bytes.
    ///   - seed: where the sequence starts.
    /// - Returns: the bytes.
    public static func bytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
        var state = seed
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            for index in buffer.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        return data
    }

    /// Where `received` first differs from `expected`, in words; `nil` when they are equal.
    ///
    /// Checks compare large bodies with this rather than `==` inside `#expect`, whose failure
    /// message diffs the two byte by byte: for bodies of tens of kilobytes that diff runs for
    /// hours and the test process looks hung.
    ///
    /// - Parameters:
    ///   - received: the bytes that arrived.
    ///   - expected: the bytes that were sent.
    /// - Returns: the lengths and the first differing offset, or `nil`.
    public static func difference(_ received: Data, from expected: Data) -> String? {
        guard received != expected else { return nil }
        let offset = zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(received.count, expected.count)
        return "\(received.count) bytes arrived where \(expected.count) were sent; they first differ at byte \(offset)"
    }

    /// "gateway " × 500 compressed with gzip.
    static let gzipBody =
        Data(base64Encoded: "H4sIAAAAAAACA+3FMQ0AMAgAMCuzxrFggITgHhk87dOM+h3z0rZt27Ztn71PbALKoA8AAA==") ?? Data()
    static let gzipText = String(repeating: "gateway ", count: 500)

    /// The body as text.
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
#endif
