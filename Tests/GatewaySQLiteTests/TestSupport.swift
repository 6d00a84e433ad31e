import Foundation
import Gateway
import GatewaySQLite
import GatewayTesting
import GraphQLLanguage

/// A fresh folder under the system's temporary folder, removed when the value is released.
final class TemporaryFolder: Sendable {
    let path: String

    init(_ label: String = #function) throws {
        let name = label.filter { $0.isLetter || $0.isNumber }.prefix(40)
        path = NSTemporaryDirectory() + "gateway-sqlite-tests-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }
}

/// Collects the warnings a store reports.
final class WarningLog: Sendable {
    private let warnings = Locked<[CacheWarning]>([])

    var all: [CacheWarning] { warnings.value }

    var handler: @Sendable (CacheWarning) -> Void {
        { [warnings] warning in warnings.withLock { $0.append(warning) } }
    }
}

/// Keys and entries for tests.
enum Fixture {
    static let operation = CacheKey.Operation(text: "query Track($id:ID!){track(id:$id){id title}}", name: "Track")
    static let endpoint = "https://api.example.com/graphql"
    /// A fixed moment with a whole number of seconds, so that it survives storage exactly.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func key(_ id: Int, partition: CachePartition = .anonymous, operation: CacheKey.Operation = operation)
        -> CacheKey
    {
        operation.key(variables: ["id": .number(JSONNumber(id))], endpoint: endpoint, partition: partition)
    }

    static func entry(_ id: Int, partition: CachePartition = .anonymous, body: String? = nil, bytes: Int? = nil,
                      tags: [String] = [], storedAt: Date = now, ttl: TimeInterval? = 3600,
                      operation: CacheKey.Operation = operation) -> CacheEntry {
        let text = body ?? #"{"data":{"track":{"id":"\#(id)","title":"Track \#(id)"}}}"#
        var data = Data(text.utf8)
        if let bytes, bytes > data.count { data.append(Data(repeating: UInt8(ascii: " "), count: bytes - data.count)) }
        return CacheEntry(
            key: key(id, partition: partition, operation: operation), status: 200,
            headers: ["Content-Type": "application/json", "ETag": "\"v\(id)\""], body: data, tags: tags,
            storedAt: storedAt, expiresAt: ttl.map { storedAt.addingTimeInterval($0) }, etag: "\"v\(id)\"")
    }

    /// Whether `needle` occurs in any of the files.
    static func filesContain(_ files: [String], _ needle: String) -> Bool {
        let pattern = Data(needle.utf8)
        return files.contains { file in
            guard let data = FileManager.default.contents(atPath: file) else { return false }
            return data.range(of: pattern) != nil
        }
    }
}
