import Foundation
@testable import Gateway
import GatewayTesting

/// Helpers shared by the transport's end-to-end tests (requests and bytes come from
/// `TransportConformance`).
enum TransportTesting {
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
