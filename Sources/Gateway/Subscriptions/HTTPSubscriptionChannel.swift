import Foundation

/// What the HTTP channels share: the POST that opens the subscription goes through the
/// pipeline's streaming path (`StreamRequest`), and the body is read by the protocol's reader.
/// A server that answers with one JSON result instead of a stream (a subscription it refused
/// before starting, say) gives that one result.
struct HTTPSubscriptionChannel: Sendable {
    let pipeline: Pipeline
    /// What the protocol asks for.
    let accept: String

    /// Opens `subscription` and hands each result `read` finds in the body to the stream.
    ///
    /// - Parameter read: reads the body, calling its `yield` with each result's JSON object.
    func open(_ subscription: SubscriptionOpening,
              read: @escaping @Sendable (ResponseStream, _ yield: @Sendable (Data) -> Void) async throws -> Void)
        -> AsyncThrowingStream<Data, any Error>
    {
        let (results, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let pipeline = pipeline, accept = accept
        let task = Task {
            do {
                let request = SubscriptionHTTPRequest(opening: subscription, accept: accept)
                let response = ResponseStream(try await pipeline.send(StreamRequest(base: request)), of: nil)
                subscription.record.opened(
                    response.request, head: HTTPResponse(status: response.status, headers: response.headers,
                                                         url: response.url))
                if Self.isSingleResult(response.headers["Content-Type"]) {
                    let whole = try await StreamedResponse(status: response.status, body: response.body)
                        .collect(upTo: pipeline.configuration.maxResponseBytes)
                    continuation.yield(whole.body)
                } else {
                    try await read(response) { continuation.yield($0) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled ? CancellationError() : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return results
    }

    /// Whether a `Content-Type` is one JSON result rather than a stream.
    static func isSingleResult(_ contentType: String?) -> Bool {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json" || type == "application/graphql-response+json"
    }
}
