import Foundation

extension URLSessionTransport.TaskState {
    /// The task completed.
    ///
    /// - Parameters:
    ///   - error: the platform's error, if any.
    ///   - head: the task's final response head, used when the delegate never saw one
    ///     (FoundationNetworking reports a 3xx without `Location` only here, and drops its body).
    func completed(error: (any Error)?, head: (status: Int, headers: HTTPHeaders, url: URL?)?) {
        let progress = state.withLock { state in
            state.redirectPending = false
            state.cancelHeld = false
            return state.status == 0 ? nil : (received: state.received, expected: state.expectedLength)
        }
        if let error {
            var mapped = URLSessionTransport.map(error, request: request, idleTimeout: idleTimeout)
            if var failure = mapped as? GatewayError, URLSessionTransport.isConnectionLoss(failure), let progress {
                // The head arrived, so the body was cut off, whatever code the platform chose.
                let expected = progress.expected.map { " of the \($0) bytes its Content-Length announced" } ?? ""
                let said = URLSessionTransport.platformText(of: error).map { " (the platform said: \"\($0)\")" } ?? ""
                failure.message = "connection lost: the body ended after \(progress.received) bytes\(expected)\(said)"
                failure.fix = "the server closed or reset the connection mid-body; retry, or check the server"
                mapped = failure
            }
            end(.failure(mapped))
            return
        }
        if progress == nil, let head {
            let now = ContinuousClock.now
            let late: URLSessionTransport.Head = state.withLock { state in
                state.status = head.status
                state.headers = head.headers
                state.url = head.url
                state.firstByte = state.firstByte ?? now
                return state.makeHead(request: request, callStarted: callStarted)
            }
            end(.success(late))
            return
        }
        guard let progress else {
            end(.failure(GatewayError(.transport, "the request ended without a response",
                                      fix: "retry, or check the server", request: request)))
            return
        }
        if let expected = progress.expected, progress.received < expected {
            end(.failure(URLSessionTransport.connectionLost(request, received: progress.received, expected: expected)))
            return
        }
        end(.success(nil))
    }
}
