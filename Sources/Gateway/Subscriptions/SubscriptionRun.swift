import Foundation

/// One subscription from `Provider.subscribe`: the channel of the configured protocol opens it,
/// and each result it hands over is decoded as `GraphQLRequest.decode` decodes a response.
///
/// A result whose errors mean "not authenticated" (`GraphQLSettings.unauthenticated`) on a
/// subscription opened over HTTP with credentials: the credential is refreshed once (joining a
/// refresh under way, as a refused request does) and the subscription opened again; when the
/// first result after that is refused too, it is delivered (or thrown) as it is.
///
/// The subscription keeps its provider alive while it runs.
struct SubscriptionRun<Decoded: Decodable & Sendable>: Sendable {
    let request: GraphQLRequest<Decoded>
    let opening: SubscriptionOpening
    let channel: any SubscriptionChannel
    /// Kept alive while the subscription runs (releasing a provider invalidates it).
    let provider: Provider
    var pipeline: Pipeline { provider.pipeline }

    /// Starts the subscription; ending the sequence's consumer cancels it. At most
    /// `subscriptionBufferLimit` events wait for the consumer: one more ends the subscription
    /// with `.consumerBehind`, thrown once the consumer has read those it holds.
    func events() -> SubscriptionEvents<Decoded> {
        let limit = max(1, request.settings.subscriptionBufferLimit)
        let (events, continuation) = AsyncThrowingStream.makeStream(
            of: GraphQLResponse<Decoded>.self, bufferingPolicy: .bufferingOldest(limit))
        let run = self
        let task = Task {
            do {
                try await run.deliver(to: continuation, limit: limit)
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled ? CancellationError() : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return SubscriptionEvents(events)
    }

    private func deliver(to continuation: AsyncThrowingStream<GraphQLResponse<Decoded>, any Error>.Continuation,
                         limit: Int) async throws {
        var mayRefresh = true
        opening: while true {
            for try await result in channel.open(opening) {
                let response = HTTPResponse(status: opening.record.head?.status ?? 200,
                                            headers: opening.record.head?.headers ?? [:], body: result,
                                            url: opening.record.head?.url)
                let event: GraphQLResponse<Decoded>
                do {
                    event = try decode(response)
                } catch let failure as GatewayError where failure.kind == .unauthenticated {
                    if mayRefresh, try await refreshed(refusedBy: response) {
                        mayRefresh = false
                        continue opening
                    }
                    throw failure
                }
                if event.isUnauthenticated, mayRefresh, try await refreshed(refusedBy: response) {
                    mayRefresh = false
                    continue opening
                }
                mayRefresh = true
                if case .dropped = continuation.yield(event) { throw consumerBehind(limit: limit) }
            }
            return
        }
    }

    /// The failure of a subscription whose consumer has `limit` events unread and the server sent one more.
    private func consumerBehind(limit: Int) -> GatewayError {
        GatewayError(
            .consumerBehind,
            "the subscription's consumer fell behind by \(limit) events: they wait unread, the most "
                + "GraphQLSettings.subscriptionBufferLimit (\(limit)) allows, and the server sent another; "
                + "the subscription was ended",
            fix: "read the events faster (hand slow work for each event to another task), or raise "
                + "config.graphQL.subscriptionBufferLimit",
            endpoint: request.name, request: opening.record.request)
    }

    /// One result decoded, with the request that opened the subscription.
    private func decode(_ response: HTTPResponse) throws -> GraphQLResponse<Decoded> {
        var event = try request.decode(response, context: pipeline.decodingContext)
        event.request = opening.record.request
        return event
    }

    /// Whether the credential the subscription was opened with was renewed (now, or by a
    /// refresh under way), so that opening it again may succeed.
    ///
    /// - Throws: the refresh's failure (`.refreshFailed`, `.sessionExpired`, …).
    private func refreshed(refusedBy response: HTTPResponse) async throws -> Bool {
        guard let tokens = pipeline.tokens, opening.requiresAuthentication, let sent = opening.record.request else {
            return false
        }
        let context = RequestContext(id: RequestID(0), name: opening.name, baseURL: pipeline.baseURL,
                                     priority: opening.priority, requiresAuthentication: true)
        switch try await tokens.recover(from: response, sent: sent, context: context, pipeline: pipeline) {
        case .replay: return true
        case .fail(let failure): throw failure
        default: return false
        }
    }
}
