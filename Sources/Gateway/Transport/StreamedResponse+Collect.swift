import Foundation

extension StreamedResponse {
    /// Reads the whole body, stopping the exchange as soon as it passes `limit` bytes.
    ///
    /// The bytes are counted as they arrive (after content decoding), so however the body is
    /// compressed, no more than `limit` bytes are ever held: past the limit the body is dropped,
    /// which cancels the rest of the exchange. Cancelling the calling task does the same.
    ///
    /// ```swift
    /// let response = try await transport.send(request).collect(upTo: request.maxResponseBytes)
    /// ```
    ///
    /// - Parameter limit: the largest body accepted, in bytes.
    /// - Returns: the response with its whole body and the metrics the transport reported at
    ///   the body's end.
    /// - Throws: `GatewayError` of kind `.responseTooLarge` past the limit, or whatever the
    ///   transport's body throws (`.transport`, `.timeout`, `CancellationError`, …).
    public func collect(upTo limit: Int) async throws -> HTTPResponse {
        var data = Data()
        if case .whole(let whole) = body.source {
            guard whole.count <= limit else { throw GatewayError.responseTooLarge(nil, limit: limit, declared: nil) }
            data = whole
        } else {
            let declared = headers.declaredBodyLength.flatMap { $0 <= limit ? $0 : nil }
            if let declared { data.reserveCapacity(declared) }
            for try await chunk in body {
                guard chunk.count <= limit - data.count else {
                    throw GatewayError.responseTooLarge(nil, limit: limit, declared: nil)
                }
                // The first chunk is kept as it is unless room for the whole body was reserved.
                if data.isEmpty, declared == nil { data = chunk } else { data.append(chunk) }
            }
        }
        return HTTPResponse(
            status: status, headers: headers, body: data, url: url,
            transportMetrics: body.metrics ?? TransportMetrics(bytesReceived: Int64(data.count)))
    }
}
