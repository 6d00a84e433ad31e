import Foundation
@testable import Gateway
import GatewayTesting

/// Helpers shared by the transport's end-to-end tests.
enum TransportTesting {
    /// Deterministic pseudo-random bytes covering every byte value.
    static func bytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
        var state = seed
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            for index in buffer.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        return data
    }

    /// A request to a path on the server.
    static func request(
        _ server: LoopbackServer,
        _ path: String,
        method: HTTPMethod = .get,
        headers: HTTPHeaders = [:],
        body: HTTPRequest.Body? = nil,
        timeout: Duration? = .seconds(30),
        deadline: ContinuousClock.Instant? = nil,
        maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes
    ) throws -> HTTPRequest {
        HTTPRequest(
            method: method, url: try server.url(path), headers: headers, body: body,
            timeout: timeout, deadline: deadline, maxResponseBytes: maxResponseBytes
        )
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-transport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// "gateway " × 500 compressed with gzip.
    static let gzipBody = Data(base64Encoded: "H4sIAAAAAAACA+3FMQ0AMAgAMCuzxrFggITgHhk87dOM+h3z0rZt27Ztn71PbALKoA8AAA==") ?? Data()
    static let gzipText = String(repeating: "gateway ", count: 500)
}
