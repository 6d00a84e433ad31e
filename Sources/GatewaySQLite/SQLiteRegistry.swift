import Foundation
import Gateway

/// The read-write databases open in this process, by resolved path: one writing connection per
/// file per process, however many stores are made for it.
enum SQLiteRegistry {
    private final class WeakDatabase {
        weak var database: SQLiteCacheDatabase?
        init(_ database: SQLiteCacheDatabase) { self.database = database }
    }

    private static let open = Locked<[String: WeakDatabase]>([:])

    /// The open database of `path`, or a new one made by `make` (under the registry's lock, so
    /// two stores made at once for one path share one connection).
    static func database(path: String, make: () throws -> SQLiteCacheDatabase) throws -> SQLiteCacheDatabase {
        try open.withLock { open in
            if let existing = open[path]?.database { return existing }
            open = open.filter { $0.value.database != nil }
            let database = try make()
            open[path] = WeakDatabase(database)
            return database
        }
    }

    /// An absolute path with `.`, `..` and symbolic links of its directory resolved, so that two
    /// spellings of one file find one database.
    static func resolve(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
            ? path : FileManager.default.currentDirectoryPath + "/" + path
        let url = URL(fileURLWithPath: absolute).standardizedFileURL
        let directory = url.deletingLastPathComponent().resolvingSymlinksInPath()
        return directory.appendingPathComponent(url.lastPathComponent).path
    }
}
