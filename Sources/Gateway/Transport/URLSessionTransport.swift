import Foundation

// PLACEHOLDER: this minimal `URLSessionTransport` exists only so the Provider's default argument
// compiles on this branch. The real transport replaces this file when the branches are merged.

/// Placeholder for the `URLSession`-based transport; every request fails.
public struct URLSessionTransport: Transport {
    /// Creates the placeholder transport.
    public init() {}

    /// Always fails: the real transport replaces this placeholder.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw GatewayError(.transport, "URLSessionTransport is a placeholder in this build")
    }
}
