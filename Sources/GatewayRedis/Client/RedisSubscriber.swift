import Dispatch
import Foundation
import Gateway

/// A connection of its own, on a thread of its own, that listens to a fixed set of channels
/// (`SUBSCRIBE`) and hands every message to a handler.
///
/// It connects at `start()`, and after a dropped connection (the server restarted or went
/// away) connects again, waiting a little longer after each failure (up to 2 s). Each time its
/// subscription is confirmed the handler hears `.subscribed`, with `reconnected: true` after a
/// drop: messages published while it was away are lost, and the handler must assume it missed
/// some. A server that stops or restarts closes the connection. A silent failure that leaves the
/// socket open (a host gone from the network, a stopped process, a middlebox that dropped the
/// flow) is found by a keep-alive: after `keepAlive` without a word from the server the
/// subscriber sends `PING`, and a connection that stays silent for another `keepAlive` is
/// dropped and made again.
final class RedisSubscriber: Sendable {
    /// What the subscriber hands to its handler, on its own thread.
    enum Event: Sendable {
        /// The subscription is confirmed; `reconnected` after a dropped connection.
        case subscribed(reconnected: Bool)
        /// A message published on one of the channels.
        case message(channel: String, payload: [UInt8])
        /// The confirmed subscription's connection dropped: messages are lost until the next `.subscribed`.
        case dropped
        /// The server answered the keep-alive's `PING` on the idle connection.
        case keptAlive
    }

    private struct State {
        var started = false
        var closed = false
        var subscribed = false
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    }

    let url: RedisURL
    let channels: [String]
    private let limits: RESPLimits
    private let connectTimeout: Duration
    /// How long the connection may stay silent before a `PING`, and then before it is dropped.
    private let keepAlive: Duration
    private let handler: @Sendable (Event) -> Void
    private let state = Locked(State())
    private let wakeup = DispatchSemaphore(value: 0)

    /// A subscriber to `channels` at `url`; nothing happens until `start()`.
    ///
    /// - Parameter keepAlive: how long the connection may stay silent before the subscriber sends
    ///   `PING`, and then how long it waits for any answer before it drops the connection (at
    ///   least 10 ms).
    init(url: RedisURL, channels: [String], limits: RESPLimits = RESPLimits(), connectTimeout: Duration,
         keepAlive: Duration = .seconds(15), handler: @escaping @Sendable (Event) -> Void) {
        self.url = url
        self.channels = channels
        self.limits = limits
        self.connectTimeout = connectTimeout
        self.keepAlive = max(keepAlive, .milliseconds(10))
        self.handler = handler
    }

    /// Whether the subscription is confirmed now.
    var isSubscribed: Bool { state.withLock { $0.subscribed } }

    /// Starts the thread (once; later calls do nothing).
    func start() {
        let first = state.withLock { state -> Bool in
            guard !state.started, !state.closed else { return false }
            state.started = true
            return true
        }
        guard first else { return }
        let thread = Thread { [self] in run() }
        thread.name = "GatewayRedis:\(url.host):\(url.port)#subscriber"
        thread.start()
    }

    /// Ends the subscription: the thread stops within a quarter of a second.
    func close() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.closed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        wakeup.signal()
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// Returns once the subscription is confirmed (`true`), or after `timeout` or at close (`false`).
    func waitUntilSubscribed(timeout: Duration) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.resumeWaiter(id, with: false)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let ready = state.withLock { state -> Bool? in
                    if state.subscribed { return true }
                    if state.closed || Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            resumeWaiter(id, with: false)
        }
    }

    private func resumeWaiter(_ id: UInt64, with value: Bool) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: value)
    }

    private func setSubscribed(_ subscribed: Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.subscribed = subscribed
            guard subscribed else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private func run() {
        var delay = Duration.milliseconds(50)
        var subscribedBefore = false
        while !isClosed {
            do {
                let connection = try RedisConnection(url: url, limits: limits,
                                                     deadline: ContinuousClock.now + connectTimeout)
                defer { connection.close() }
                let commands = channels.map { RedisCommand("SUBSCRIBE", $0) }
                let replies = try connection.run(commands, deadline: ContinuousClock.now + connectTimeout)
                guard replies.allSatisfy({ $0.arrayValue?.first?.text == "subscribe" }) else {
                    throw RedisError(.protocolViolation, "Redis at \(url) did not confirm the subscription")
                }
                // The handler first: whoever waits for the subscription finds it handled.
                handler(.subscribed(reconnected: subscribedBefore))
                setSubscribed(true)
                subscribedBefore = true
                delay = .milliseconds(50)
                try listen(on: connection)
            } catch {
                if isSubscribed {
                    setSubscribed(false)
                    handler(.dropped)
                }
            }
            if isClosed { break }
            _ = wakeup.wait(timeout: .now() + .milliseconds(Int(RedisCacheStore.milliseconds(delay))))
            delay = min(delay * 2, .seconds(2))
        }
        setSubscribed(false)
    }

    /// Reads messages until the connection fails, stays silent past the keep-alive, or the
    /// subscriber is closed.
    private func listen(on connection: RedisConnection) throws(RedisError) {
        var lastHeard = ContinuousClock.now
        // When the keep-alive's PING went, while its answer is awaited.
        var pingedAt: ContinuousClock.Instant?
        while !isClosed {
            let reply: RESPValue
            do {
                reply = try connection.readReply(deadline: ContinuousClock.now + min(.milliseconds(250), keepAlive))
            } catch where error.kind == .timeout {
                // Nothing arrived: the parser keeps any part of a message, and the loop checks for
                // close and for the keep-alive.
                let now = ContinuousClock.now
                if let pingedAt {
                    guard now - pingedAt < keepAlive else {
                        throw RedisError(.timeout, "Redis at \(url) did not answer PING on the subscription's "
                                            + "connection within \(keepAlive): the connection is made again")
                    }
                } else if now - lastHeard >= keepAlive {
                    try connection.write([RedisCommand("PING")], deadline: now + connectTimeout)
                    pingedAt = now
                }
                continue
            }
            lastHeard = ContinuousClock.now
            pingedAt = nil
            guard let items = reply.arrayValue, let kind = items.first?.text else { continue }
            if kind == "pong" {
                handler(.keptAlive)
            } else if kind == "message", items.count == 3, let channel = items[1].text, let payload = items[2].bytes {
                handler(.message(channel: channel, payload: payload))
            }
        }
    }
}
