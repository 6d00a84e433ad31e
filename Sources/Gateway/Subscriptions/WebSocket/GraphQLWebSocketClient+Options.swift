import Foundation
import GraphQLLanguage

extension GraphQLWebSocketClient {
    /// How the client opens, keeps and reopens its socket.
    public struct Options: Sendable {
        /// The `connection_init` payload for a credential (`nil` when there is none to send);
        /// returning `nil` sends no payload. By default `{"Authorization": "Bearer <access token>"}`
        /// with a credential, and no payload without one.
        public var connectionPayload: @Sendable (Credential?) -> JSONObject?
        /// How long the server has to answer `connection_init` with `connection_ack`: 10 s by
        /// default. Past it the socket is closed with `4504` and opened again as after a drop.
        public var acknowledgementTimeout: Duration
        /// After this long without a message from the server the client sends `ping`; after
        /// as long again without one the socket counts as lost. 20 s by default; `nil` never.
        public var keepAlive: Duration?
        /// When and how often a lost socket is opened again.
        public var reconnection: Reconnection
        /// How long the socket stays open after its last subscription ended, for the next one
        /// to use: `.zero` by default, which closes it (`1000`) at once.
        public var linger: Duration
        /// Where timeouts, keep-alive and back-off wait: real time by default.
        public var clock: any TimeSource

        /// Creates options.
        ///
        /// - Parameters:
        ///   - connectionPayload: the `connection_init` payload for a credential.
        ///   - acknowledgementTimeout: how long to wait for `connection_ack`.
        ///   - keepAlive: the idle time before a `ping`; `nil` sends none.
        ///   - reconnection: when a lost socket is opened again.
        ///   - linger: how long an unused socket stays open.
        ///   - clock: where the client waits.
        public init(connectionPayload: @escaping @Sendable (Credential?) -> JSONObject? = Options.bearerPayload,
                    acknowledgementTimeout: Duration = .seconds(10), keepAlive: Duration? = .seconds(20),
                    reconnection: Reconnection = Reconnection(), linger: Duration = .zero,
                    clock: any TimeSource = SystemTimeSource()) {
            self.connectionPayload = connectionPayload
            self.acknowledgementTimeout = acknowledgementTimeout
            self.keepAlive = keepAlive
            self.reconnection = reconnection
            self.linger = linger
            self.clock = clock
        }

        /// `{"Authorization": "Bearer <access token>"}` with a credential; no payload without.
        public static func bearerPayload(_ credential: Credential?) -> JSONObject? {
            credential.map { ["Authorization": .string("Bearer \($0.accessToken)")] }
        }
    }

    /// When a lost socket is opened again: exponential back-off with jitter, a bounded number
    /// of times in a row.
    ///
    /// Attempt `n` (from 1) waits `min(maxDelay, initialDelay × 2^(n−1))`, less a random part of
    /// up to `jitter` of it. A socket the server acknowledges starts the count again. After
    /// `maxAttempts` failed attempts in a row every subscription fails with the last error.
    public struct Reconnection: Sendable, Hashable {
        /// The most attempts in a row: 5 by default; `0` never reconnects.
        public var maxAttempts: Int
        /// The wait before the first attempt: 0.5 s by default.
        public var initialDelay: Duration
        /// The longest wait: 30 s by default.
        public var maxDelay: Duration
        /// The part of each wait that is random, from 0 (none) to 1 (all): 0.5 by default.
        public var jitter: Double

        /// Creates a reconnection policy.
        ///
        /// - Parameters:
        ///   - maxAttempts: the most attempts in a row (at least 0).
        ///   - initialDelay: the first wait.
        ///   - maxDelay: the longest wait.
        ///   - jitter: the random part of each wait, clamped to 0…1.
        public init(maxAttempts: Int = 5, initialDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
                    jitter: Double = 0.5) {
            self.maxAttempts = max(0, maxAttempts)
            self.initialDelay = max(.zero, initialDelay)
            self.maxDelay = max(self.initialDelay, maxDelay)
            self.jitter = jitter.isFinite ? min(1, max(0, jitter)) : 0
        }

        /// The wait before attempt `attempt` (from 1).
        ///
        /// - Parameters:
        ///   - attempt: the attempt's number.
        ///   - random: a number in 0..<1 (the jitter's draw).
        public func delay(before attempt: Int, random: Double) -> Duration {
            let exponent = Double(min(max(attempt - 1, 0), 62))
            let full = min(maxDelay.seconds, initialDelay.seconds * pow(2, exponent))
            return .seconds(clamping: full * (1 - jitter * min(max(random, 0), 1)))
        }
    }
}
