import Foundation

/// The server's shared state and its threads: one that accepts connections and one per
/// connection. Blocking socket I/O happens only on these threads, never on Swift
/// concurrency's cooperative pool; handlers run as tasks and the connection thread waits for
/// their answer.
final class ServerCore: Sendable {
    struct State {
        var isShutDown = false
        /// Open connections by id. A descriptor is closed only while it is removed from here
        /// under the lock, so `shutdown` never touches a descriptor number that was reused.
        var connections: [Int: Int32] = [:]
        var nextConnectionID = 1
        var requests: [LoopbackRequest] = []
        var runningThreads = 0
        var answers: [Int: LoopbackResponse] = [:]
        var nextAnswerID = 1
    }

    let state = Guarded(State())
    let handler: LoopbackHandler
    let listener: Int32
    let port: Int
    let maxRequestBodyBytes: Int
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(maxRequestBodyBytes: Int, handler: @escaping LoopbackHandler) throws(LoopbackServerError) {
        let (listener, port) = try Socket.listenOnLoopback()
        let wake: (read: Int32, write: Int32)
        do {
            wake = try Socket.makePipe()
        } catch {
            Socket.closeSocket(listener)
            throw error
        }
        self.listener = listener
        self.port = port
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        self.handler = handler
        self.maxRequestBodyBytes = maxRequestBodyBytes
    }

    /// Starts the accept thread.
    func start() {
        startThread { core in core.acceptLoop() }
    }

    private func startThread(_ body: @escaping @Sendable (ServerCore) -> Void) {
        state.withLock { $0.runningThreads += 1 }
        let thread = Thread { [self] in
            body(self)
            state.withLock { $0.runningThreads -= 1 }
        }
        thread.name = "GatewayLoopback:\(port)"
        thread.start()
    }

    private func acceptLoop() {
        while Socket.waitForAccept(listener: listener, wake: wakeRead) {
            guard let fd = Socket.acceptConnection(listener) else { continue }
            let id: Int? = state.withLock { state in
                guard !state.isShutDown else { return nil }
                let id = state.nextConnectionID
                state.nextConnectionID += 1
                state.connections[id] = fd
                return id
            }
            guard let id else {
                Socket.closeSocket(fd)
                break
            }
            startThread { core in LoopbackConnection(core: core, id: id, fd: fd).run() }
        }
        Socket.closeSocket(listener)
    }

    /// Closes every socket, wakes every thread and waits (up to ten seconds) for them to end.
    /// Safe to call more than once and from any thread.
    func shutdown() {
        let first = state.withLock { state -> Bool in
            guard !state.isShutDown else { return false }
            state.isShutDown = true
            for fd in state.connections.values { Socket.shutdownBothWays(fd) }
            return true
        }
        guard first else { return }
        Socket.wake(wakeWrite)
        _ = state.wait(until: Date(timeIntervalSinceNow: 10)) { $0.runningThreads == 0 ? true : nil }
        Socket.closeSocket(wakeRead)
        Socket.closeSocket(wakeWrite)
    }

    var isShutDown: Bool { state.withLock { $0.isShutDown } }

    /// Closes one connection's socket, with a reset when asked.
    func closeConnection(_ id: Int, reset: Bool = false) {
        state.withLock { state in
            guard let fd = state.connections.removeValue(forKey: id) else { return }
            if reset { Socket.reset(fd) } else { Socket.closeSocket(fd) }
        }
    }

    func record(_ request: LoopbackRequest) {
        state.withLock { $0.requests.append(request) }
    }

    /// Runs the handler as a task and blocks this (non-pool) thread until it answers.
    ///
    /// - Returns: the handler's response (a 500 when it threw), or `nil` when the server shut
    ///   down first; the handler's task is then cancelled.
    func answer(_ request: LoopbackRequest) -> LoopbackResponse? {
        let answerID = state.withLock { state -> Int in
            defer { state.nextAnswerID += 1 }
            return state.nextAnswerID
        }
        let handler = self.handler
        let task = Task { [state] in
            let response: LoopbackResponse
            do {
                response = try await handler(request)
            } catch {
                response = .text("the loopback handler threw: \(error)", status: 500)
            }
            state.withLock { $0.answers[answerID] = response }
        }
        let outcome = state.wait { state -> LoopbackResponse?? in
            if let response = state.answers.removeValue(forKey: answerID) { return .some(response) }
            return state.isShutDown ? .some(nil) : nil
        }
        guard let response = outcome ?? nil else {
            task.cancel()
            return nil
        }
        return response
    }

    /// Runs `body` as a task and blocks this (non-pool) thread until it returns.
    ///
    /// - Returns: what `body` returned, or `nil` when the server shut down first; its task is
    ///   then cancelled.
    func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value? {
        let done = Guarded<Value?>(nil)
        let task = Task {
            let value = await body()
            done.withLock { $0 = value }
            state.withLock { _ in }  // wakes the waiting thread
        }
        let outcome = state.wait { state -> Value?? in
            if let value = done.withLock({ $0 }) { return .some(value) }
            return state.isShutDown ? .some(nil) : nil
        }
        guard let value = outcome ?? nil else {
            task.cancel()
            return nil
        }
        return value
    }

    /// Sleeps for `duration` unless the server shuts down first.
    ///
    /// - Returns: `true` when the whole time passed, `false` when the server shut down.
    func pause(_ duration: Duration) -> Bool {
        let (seconds, attoseconds) = duration.components
        let interval = Double(seconds) + Double(attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: max(0, interval))
        let shutDown = state.wait(until: deadline) { $0.isShutDown ? true : nil }
        return shutDown == nil
    }

    /// Blocks until the server shuts down.
    func waitForShutdown() {
        _ = state.wait { $0.isShutDown ? true : nil }
    }
}
