import Foundation
import GraphQLLanguage

extension Source {
    /// The file at `url` as a source named by its standardized path, read no further than one
    /// byte past `limit`: the parser refuses a larger file with the same error it would give the
    /// whole file, and a file of any size costs at most that much memory.
    ///
    /// - Returns: `nil` when the file cannot be opened or read.
    package static func reading(_ url: URL, upTo limit: Int) -> Source? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) ?? Data() else { return nil }
        return Source(bytes: [UInt8](data), name: url.standardizedFileURL.path)
    }
}
