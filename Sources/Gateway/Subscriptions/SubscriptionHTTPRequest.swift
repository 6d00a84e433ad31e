import Foundation

/// The POST that opens a subscription over HTTP (multipart or server-sent events): the base
/// of the `StreamRequest` an HTTP channel sends, so the queue, auth (with its refresh and
/// replay after a 401), retries and observers apply as to any request.
struct SubscriptionHTTPRequest: Requestable {
    let opening: SubscriptionOpening
    /// What the channel's protocol answers with.
    let accept: String

    var name: String { opening.name }

    /// The endpoint, `Accept`, the JSON body; sent again on a failure before the head arrives
    /// (opening a subscription changes nothing on the server).
    func prepare(baseURL: URL) throws -> PreparedRequest {
        var headers: HTTPHeaders = ["Accept": accept]
        headers.merge(opening.headers)
        return PreparedRequest(
            name: name, method: .post, url: opening.url, headers: headers,
            parameters: [RequestParameters(opening.payload, encoder: GraphQLParameterEncoder())],
            requiresAuthentication: opening.requiresAuthentication, priority: opening.priority,
            timeout: opening.timeout, deadline: opening.deadline, retryability: .idempotent)
    }

    /// `nil` for a 2xx; a failed status with a GraphQL error body is an error carrying those
    /// errors, any other a `.status` error.
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        guard !response.isSuccess else { return nil }
        if let envelope = try? GraphQLEnvelope.read(response, operation: name), !envelope.errors.isEmpty {
            return GraphQLEnvelope.failure(envelope.errors, operation: name, response: response,
                                           unauthenticated: opening.unauthenticated)
        }
        return GatewayError(
            .status, "expected 2xx to open \(name), got \(HTTPStatus.describe(response.status))",
            fix: Endpoint<Empty>.fix(forStatus: response.status, authenticated: opening.requiresAuthentication),
            response: response)
    }

    /// Never called: the stream hands the body over.
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Empty { Empty() }
}
