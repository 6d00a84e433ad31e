import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The session's delegate: routes each callback by task identifier to that task's state
    /// (per-task delegates get no callbacks on Linux).
    final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private let tasks = Locked<[Int: TaskState]>([:])
        private let statistics: BufferStatistics

        init(statistics: BufferStatistics) {
            self.statistics = statistics
        }

        func register(_ state: TaskState, for identifier: Int) {
            tasks.withLock { $0[identifier] = state }
        }

        func unregister(_ identifier: Int) {
            tasks.withLock { $0[identifier] = nil }
        }

        private func state(_ task: URLSessionTask) -> TaskState? {
            tasks.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let state = state(dataTask), let http = response as? HTTPURLResponse else {
                completionHandler(.allow)
                return
            }
            let accepted = state.received(status: http.statusCode, headers: Self.headers(of: http), url: http.url)
            completionHandler(accepted ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let state = state(dataTask) else {
                // A task ended (or paused at the buffer limit) while the platform had pieces queued.
                statistics.noteIgnored(data.count)
                return
            }
            state.received(data)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            // Redirects are followed by `send`, which applies the origin rules. When the exchange
            // already ended, the task was cancelled: answering now would trap inside the platform.
            if let state = state(task), !state.redirectAsked() { return }
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
            totalBytesSent: Int64, totalBytesExpectedToSend: Int64
        ) {
            state(task)?.sent(total: totalBytesSent)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let state = state(task) else { return }
            let head = (task.response as? HTTPURLResponse).map { ($0.statusCode, Self.headers(of: $0), $0.url) }
            state.completed(error: error, head: head)
        }

        /// The response's header fields, sorted by name (the platform does not keep their order).
        static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
            var headers = HTTPHeaders()
            // Each name is lowered once, not at every comparison of the sort.
            typealias Field = (key: String, name: String, value: String)
            let fields = response.allHeaderFields.compactMap { key, value -> Field? in
                guard let name = key as? String else { return nil }
                return (name.lowercased(), name, value as? String ?? "\(value)")
            }
            for field in fields.sorted(by: { $0.key < $1.key }) {
                headers.add(name: field.name, value: field.value)
            }
            return headers
        }
    }
}
