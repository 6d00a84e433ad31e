import Foundation

extension URLSessionTransport {
    #if canImport(FoundationNetworking)
    /// The session's delegate queue on FoundationNetworking: it runs each delegate callback at
    /// once, on the thread that delivers it.
    ///
    /// FoundationNetworking delivers every callback (response head, each piece of body,
    /// completion) from the session's own serial work queue by adding an operation to the
    /// delegate queue, and an ordinary `OperationQueue` hands each one to another thread: three
    /// or more thread hand-offs per request where a completion handler costs one. The delegate's
    /// callbacks only take a lock, append data and resume a continuation, so running them in
    /// place keeps their order (the work queue is serial) and blocks nothing. They never wait for
    /// the session: the only call back into it, `URLSessionTask.cancel()`, is sent from another
    /// thread (see `TaskState.setCancel`).
    final class DelegateQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }

        override func addOperation(_ operation: Operation) {
            operation.start()
        }
    }
    #else
    /// The session's delegate queue: an ordinary serial queue on Apple platforms.
    final class DelegateQueue: OperationQueue, @unchecked Sendable {}
    #endif
}
