import Foundation

/// An endpoint downloaded to a file: the requestable `Provider.download(_:to:resumingPartialFile:)`
/// sends. It goes through every step of the pipeline as the endpoint would (queue, auth and its
/// refresh, retries, observers, metrics), except the response cache; its body goes to a file
/// (step 7) that is moved into place when the response is accepted (step 9).
struct Download<Body: Sendable>: Requestable {
    let endpoint: Endpoint<Body>
    let file: DownloadFile

    var name: String { endpoint.name }

    /// The endpoint's request, its body bound for the file: no size limit unless the endpoint
    /// sets one, and `Accept-Encoding: identity` unless it sets another (a range of a compressed
    /// body would not be a range of the file).
    func prepare(baseURL: URL) throws -> PreparedRequest {
        var prepared = try endpoint.prepare(baseURL: baseURL)
        prepared.responseBody = .file(file)
        prepared.maxResponseBytes = endpoint.maxResponseBytes ?? .max
        if !prepared.headers.contains("Accept-Encoding") { prepared.headers["Accept-Encoding"] = "identity" }
        return prepared
    }

    /// The endpoint's validation; then any status but 2xx fails, whatever the endpoint accepts
    /// (only a success's body was written to the file).
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        if let failure = endpoint.validate(response, context: context) { return failure }
        guard response.isSuccess else {
            return GatewayError(.status, "expected 2xx for a download, got \(HTTPStatus.describe(response.status))",
                                fix: Endpoint<Body>.fix(forStatus: response.status,
                                                        authenticated: endpoint.requiresAuthentication),
                                response: response)
        }
        return nil
    }

    /// The complete file moved to its destination.
    ///
    /// - Returns: the destination.
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> URL {
        try file.complete()
    }
}
