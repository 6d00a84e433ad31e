import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import Testing

/// What `print(error)` says about a cache database that cannot be used.
@Suite(.offPool) struct SQLiteErrorDescriptionTests {
    @Test func aDamagedDatabaseIsDescribedWithoutNamingInternalTypes() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: GatewayError.self) { try SQLiteCacheStore(path: path, mode: .readOnly) }
        #expect(error.description.contains("is damaged"), "\(error)")
        #expect(!error.description.contains("underlying: SQLite"), "\(error)")
        #expect(error.description.components(separatedBy: "Fix:").count == 2, "\(error)")
    }
}
