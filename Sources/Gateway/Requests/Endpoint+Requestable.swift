import Foundation

extension Endpoint: Requestable {
    /// Joins the path to `baseURL`, appends the fixed query items and carries the rest over.
    ///
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a path that is refused by the
    ///   rules of `PathOptions` or a query item that cannot be written.
    public func prepare(baseURL: URL) throws -> PreparedRequest {
        var url = try PathJoining.join(base: baseURL, path: path, options: pathOptions)
        if !query.isEmpty {
            let text = query.map { item in
                PercentEncoding.escape(item.name) + (item.value.map { "=" + PercentEncoding.escape($0) } ?? "")
            }.joined(separator: "&")
            url = try QueryParameterEncoder.appending(query: text, to: url)
        }
        var prepared = PreparedRequest(
            name: name, method: method, url: url, headers: headers, parameters: parameters,
            requiresAuthentication: requiresAuthentication, priority: priority, timeout: timeout,
            deadline: deadline, maxResponseBytes: maxResponseBytes, retryability: retryability,
            waitsForConnectivity: waitsForConnectivity)
        prepared.cache = cache
        return prepared
    }

    /// `nil` for an acceptable status; otherwise a `.status` error that says what was expected
    /// and what came (`expected 2xx, got 404 Not Found`). When the endpoint declares an API
    /// error body, it is decoded into `apiError` and summarised in the message (compact JSON,
    /// sensitive fields redacted, at most 300 characters); an HTML body is named as such.
    public func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        guard !acceptableStatusCodes.contains(response.status) else { return nil }
        var failure = GatewayError(
            .status, "expected \(acceptableStatusCodes), got \(HTTPStatus.describe(response.status))",
            fix: Self.fix(forStatus: response.status, authenticated: requiresAuthentication), response: response)
        if let note = ErrorBodySummary.htmlNote(response, expected: "JSON") {
            failure.message += "; " + note
            if let apiErrorDecoding {
                failure.message += ", so it could not be decoded as \(apiErrorDecoding.typeName)"
            }
        } else if let apiErrorDecoding, !response.body.isEmpty {
            do {
                failure.apiError = try apiErrorDecoding.decode(response, context: context)
                if let summary = ErrorBodySummary.json(response) {
                    failure.message += "; the server's \(apiErrorDecoding.typeName): \(summary)"
                }
            } catch {
                let reason = (error as? GatewayError)?.message ?? "decoding failed"
                failure.message += "; the error body could not be decoded as \(apiErrorDecoding.typeName) (\(reason))"
            }
        }
        return failure
    }

    /// Decodes an accepted response with `decoding`.
    ///
    /// - Throws: `GatewayError` of kind `.decoding`.
    public func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Value {
        try decoding.decode(response, context: context)
    }

    /// How to put a failed status right; for 401, where the credentials came from (the auth
    /// stage, or the request itself when it skips the stage, as a login does).
    static func fix(forStatus status: Int, authenticated: Bool = true) -> String? {
        switch status {
        case 400, 422: "check the parameters the endpoint sends"
        case 401 where !authenticated: "check the credentials the request sends (the server refused them)"
        case 401: "check the credentials: the auth stage, or the Authorization header"
        case 403: "the credentials were accepted but may not do this"
        case 404, 410: "check the path and the provider's base URL"
        case 405: "check the request method"
        case 406, 415: "check the Accept and Content-Type headers (the encoder sets Content-Type)"
        case 408, 429, 502, 503, 504: "try again later"
        case 413: "send a smaller body"
        case 300...399: "the redirect was not followed; check the URL"
        case 500...599: "the server failed; try again later or report it to the API's owners"
        default: nil
        }
    }
}
