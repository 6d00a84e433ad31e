import Foundation
@testable import Gateway
import GatewayTesting
import GraphQLLanguage

/// Helpers for the download tests: files of known bytes, a provider over the real
/// `URLSessionTransport`, and what a download's folder holds.
enum Downloads {
    /// `count` bytes that differ from one `seed` to another.
    static func payload(_ count: Int, seed: UInt8 = 1) -> Data {
        var state = UInt32(seed) &* 2_654_435_761 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }

    /// The SHA-256 of a file's bytes, or of `data`.
    static func sha256(_ data: Data) -> [UInt8] { SHA256.hash(data) }

    static func sha256(of file: URL) throws -> [UInt8] { sha256(try Data(contentsOf: file)) }

    /// A provider on `/api/` of `server` with quick retries (two after the first attempt).
    static func provider(_ server: LoopbackServer, configure: (inout Provider.Configuration) -> Void = { _ in })
        throws -> Provider
    {
        Provider(baseURL: try server.url("/api/"), transport: URLSessionTransport()) { config in
            config.timeout = .seconds(30)
            config.deadline = .seconds(60)
            config.retryPolicy = RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(10))
            configure(&config)
        }
    }

    /// Every progress value a download reports, in order.
    static func steps<Value>(of transfer: TransferTask<Value>) async -> [TransferProgress] {
        var steps: [TransferProgress] = []
        for await step in transfer.progress { steps.append(step) }
        return steps
    }

    /// The partial file a download to `destination` keeps.
    static func partial(of destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).gateway-partial")
    }

    /// Whether a file exists at `url`.
    static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }
}

/// A loopback handler that answers its first request with `first` and every later one with `later`.
final class ScriptedFile: Sendable {
    private let served = Locked(0)
    private let first: @Sendable (LoopbackRequest) -> LoopbackResponse
    private let later: @Sendable (LoopbackRequest) -> LoopbackResponse

    init(first: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse,
         later: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse) {
        self.first = first
        self.later = later
    }

    func answer(_ request: LoopbackRequest) -> LoopbackResponse {
        let number = served.withLock { count -> Int in
            count += 1
            return count
        }
        return number == 1 ? first(request) : later(request)
    }
}
