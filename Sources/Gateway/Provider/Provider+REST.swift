extension Provider {
    /// Sends a REST endpoint.
    ///
    /// ```swift
    /// let response = try await provider.send(Endpoint<User>.get("users/42"))
    /// ```
    /// - Returns: the decoded value with the HTTP response, the request sent and the metrics.
    /// - Throws: `GatewayError` (`.status` with the API error body when the endpoint declares
    ///   one, `.decoding` naming the coding path, …), or `CancellationError`.
    @concurrent public func send<Value>(_ endpoint: Endpoint<Value>) async throws -> Response<Value> {
        try await pipeline.send(endpoint)
    }

    /// Sends a REST endpoint and returns only its decoded value.
    ///
    /// ```swift
    /// let user = try await provider.value(Endpoint<User>.get("users/42"))
    /// ```
    /// - Throws: as `send(_:)`.
    @concurrent public func value<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
        try await send(endpoint).value
    }
}
