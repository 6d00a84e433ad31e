import Foundation

/// A request whose successful body goes to the caller as it arrives: the requestable
/// `Provider.stream(_:)` sends. It goes through every step of the pipeline as `base` would
/// (queue, auth and its refresh, retries, validation, observers, metrics), except the response
/// cache; step 7 hands a success's body over unread (see `BodyHandoff`), and step 9 gives it to
/// the caller.
struct StreamRequest<Base: Requestable>: Requestable {
    let base: Base
    let handoff = BodyHandoff()

    var name: String { base.name }

    func prepare(baseURL: URL) throws -> PreparedRequest {
        try streaming(base.prepare(baseURL: baseURL))
    }

    func prepare(baseURL: URL, graphQL: GraphQLSettings) throws -> PreparedRequest {
        try streaming(base.prepare(baseURL: baseURL, graphQL: graphQL))
    }

    /// `prepared` with its body bound for the caller: no size limit unless the request sets
    /// one, and never from the cache.
    private func streaming(_ prepared: PreparedRequest) -> PreparedRequest {
        var prepared = prepared
        prepared.responseBody = .caller(handoff)
        prepared.maxResponseBytes = prepared.maxResponseBytes ?? .max
        prepared.cache.policy = .networkOnly
        return prepared
    }

    /// `base`'s validation; then any status but 2xx fails, whatever `base` accepts (only a
    /// success's body flows to the caller).
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        if let failure = base.validate(response, context: context) { return failure }
        guard response.isSuccess else {
            return GatewayError(.status, "expected 2xx for a stream, got \(HTTPStatus.describe(response.status))",
                                fix: Endpoint<Empty>.fix(forStatus: response.status), response: response)
        }
        return nil
    }

    /// The accepted response's body, as it arrives.
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> ResponseBody {
        handoff.take() ?? ResponseBody(response.body, metrics: response.transportMetrics)
    }
}
