import Foundation

#if !canImport(Darwin)
extension URLSessionTransport {
    /// The session's delegate queue: runs the platform's callbacks one at a time, in order, and
    /// lets the platform run at most `capacity` callbacks ahead of them.
    ///
    /// FoundationNetworking on Linux inflates gzip and deflate bodies inside libcurl and queues one
    /// callback per 16 KB of inflated body, without waiting for any of them; it keeps inflating a
    /// whole read (about 1.6 MB of compressed bytes) before it looks at a cancellation. Behind an
    /// ordinary `OperationQueue`, a body of 10 MB that inflates to 10 GiB was held in memory as
    /// queued callbacks long before the size check ran. Here the platform's thread waits for a
    /// free slot instead, so memory stays bounded by the response size limit plus `capacity`
    /// pieces, whatever the body inflates to.
    ///
    /// Invariant: a callback enqueued from the queue's own thread never waits (the queue's thread
    /// is the one that frees slots), and nothing on that thread waits for the platform's
    /// thread: the transport cancels tasks on a queue of their own, never on the delegate queue.
    ///
    /// `@unchecked Sendable` restates `OperationQueue`'s own conformance, as Swift requires of a
    /// subclass; what this class adds is `let`s of `Sendable` dispatch types.
    final class DelegateQueue: OperationQueue, @unchecked Sendable {
        /// How many callbacks may wait to run.
        static let capacity = 16

        private let slots = DispatchSemaphore(value: DelegateQueue.capacity)
        private let serial = DispatchQueue(label: "Gateway.URLSessionTransport.delegate")
        private let onSerial = DispatchSpecificKey<Bool>()

        override init() {
            super.init()
            serial.setSpecific(key: onSerial, value: true)
            name = "Gateway.URLSessionTransport"
            maxConcurrentOperationCount = 1
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            let waits = DispatchQueue.getSpecific(key: onSerial) != true
            if waits { slots.wait() }
            serial.async { [slots] in
                block()
                if waits { slots.signal() }
            }
        }

        override func addOperation(_ operation: Operation) {
            addOperation { operation.start() }
        }
    }
}
#endif
