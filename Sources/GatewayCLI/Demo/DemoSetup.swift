import Foundation
import Gateway
import GatewayDemoBackend
import GatewaySQLite

/// What `gateway demo` needs before it starts: its folder, the example API's schema, the check
/// of its operations against the generated types the script sends, and the provider the script
/// talks through.
struct DemoSetup {
    /// The folder the token file and the cache go in.
    let folder: URL
    let schema: ExampleGraphQLSchema
    /// What the check of the operations folder found: a warning that the generated types are
    /// stale, or `nil`.
    let warning: String?
    let tokenStore: FileTokenStore
    /// `<folder>/cache.sqlite`.
    let cachePath: String
    /// The SQLite store at `cachePath`.
    let cacheStore: SQLiteCacheStore
    /// The response cache over `cacheStore`, in front of it a memory store.
    let cache: ResponseCache

    /// A setup problem, said the way the person can fix it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Prepares `folder`, loads the schema, and checks the operations folder against the schema
    /// and against the generated types the script sends.
    ///
    /// - Parameters:
    ///   - folder: the demo's folder; created when missing.
    ///   - schema: the schema file, or `nil` to look for `Schemas/music.graphql` from `searchingFrom` upwards.
    ///   - queries: the operations folder to check, or `nil` for the `Queries` folder beside
    ///     `Schemas` (not checked when there is none).
    ///   - searchingFrom: where the search for the defaults starts.
    /// - Throws: `Failure` naming the path and the fix.
    init(folder: URL, schema: URL?, queries: URL?, searchingFrom start: URL) throws {
        try Self.prepare(folder: folder)
        self.folder = folder
        let schemaURL = try schema ?? Self.find("Schemas/music.graphql", from: start)
        let queriesURL = queries ?? schemaURL.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Queries", isDirectory: true)
        let text: String
        do {
            text = try String(contentsOf: schemaURL, encoding: .utf8)
        } catch {
            throw Failure(description: "could not read the schema \(schemaURL.path) "
                          + "(\((error as NSError).localizedDescription)); give its path with --schema")
        }
        do {
            self.schema = try ExampleGraphQLSchema(sdl: text, name: schemaURL.path)
        } catch {
            throw Failure(description: "the schema \(schemaURL.path) is not usable: \(error)")
        }
        if queries != nil || FileManager.default.fileExists(atPath: queriesURL.path) {
            let operations: OperationStore
            do {
                operations = try OperationStore(directory: queriesURL, schemaAt: schemaURL)
            } catch {
                throw Failure(description: "could not load the operations in \(queriesURL.path): \(error)\n"
                              + "Give the folder of Queries/*.graphql with --queries.")
            }
            warning = DemoOperations.warning(DemoOperations.differences(from: operations), queries: queriesURL,
                                             schema: schemaURL)
        } else {
            warning = nil
        }
        tokenStore = FileTokenStore(directory: folder.appendingPathComponent("tokens", isDirectory: true))
        cachePath = folder.appendingPathComponent("cache.sqlite").path
        do {
            cacheStore = try SQLiteCacheStore(path: cachePath)
        } catch {
            throw Failure(description: "could not open the cache \(cachePath): \(error)")
        }
        cache = ResponseCache(store: LayeredCacheStore(memory: MemoryCacheStore(), back: cacheStore))
    }

    /// The one provider of the demo: the token store, the refresh-token authenticator and the
    /// cache, with `recorder` observing every request.
    func provider(baseURL: URL, recorder: DemoRecorder) -> Provider {
        let tokens = tokenStore, cache = cache
        return Provider(baseURL: baseURL, transport: URLSessionTransport(timeout: .seconds(10))) { config in
            config.tokens = tokens
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
            config.cache = cache
            config.observers = [recorder]
            config.headers["User-Agent"] = "gateway-demo"
            config.jsonEncoding = JSONEncodingOptions(keys: .convertToSnakeCase)
            config.jsonDecoding = JSONDecodingOptions(keys: .convertFromSnakeCase)
            config.timeout = .seconds(10)
            config.deadline = .seconds(20)
        }
    }

    /// A new folder under the system's temporary folder.
    static func temporaryFolder() -> URL {
        let stamp = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return FileManager.default.temporaryDirectory.appendingPathComponent("gateway-demo-\(stamp)", isDirectory: true)
    }

    /// Creates `folder` (and its parents) unless it exists, closed to other users (it will hold
    /// tokens); a file in its place is an error.
    static func prepare(folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Failure(description: "--dir \(folder.path) is a file, not a folder; "
                              + "give a folder path (it is created if missing)")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(description: "could not create the folder \(folder.path) for --dir "
                          + "(\((error as NSError).localizedDescription)); check the path and its permissions")
        }
    }

    /// `relative` in `start` or the nearest parent folder that has it.
    static func find(_ relative: String, from start: URL) throws -> URL {
        var folder = start.standardizedFileURL
        for _ in 0..<64 {
            let candidate = folder.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        throw Failure(description: "could not find \(relative) in \(start.path) or any folder above it; run the demo "
                      + "from the Gateway package's folder, or give --schema FILE and --queries DIR")
    }

    /// `path`, quoted for a POSIX shell when it needs to be.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@%".contains($0) }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
