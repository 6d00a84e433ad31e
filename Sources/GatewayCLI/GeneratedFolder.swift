import Foundation
import GatewayCodegen

/// The folder `gateway generate` writes into: it rewrites only files whose contents changed and
/// removes the generated files (those starting with ``CodeGenerator/header``) no longer generated.
struct GeneratedFolder {
    var url: URL
    var shownAs: String

    /// A file or the folder that cannot be written.
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    /// What an update did.
    struct Changes: Equatable {
        var written: [String] = []
        var unchanged: [String] = []
        var removed: [String] = []

        var summary: String {
            var lines = written.map { "wrote \($0)" } + removed.map { "removed \($0)" }
            lines.append("\(written.count) written, \(unchanged.count) unchanged, \(removed.count) removed")
            return lines.joined(separator: "\n")
        }
    }

    /// Writes `files` into the folder, creating it if needed, and removes stale generated files.
    func update(with files: [GeneratedFile]) throws(WriteError) -> Changes {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw WriteError(description: "cannot create '\(shownAs)': \(error.localizedDescription)")
        }
        var changes = Changes()
        for file in files {
            let target = url.appendingPathComponent(file.name)
            let bytes = Data(file.contents.utf8)
            if let existing = manager.contents(atPath: target.path), existing == bytes {
                changes.unchanged.append(file.name)
                continue
            }
            do {
                try bytes.write(to: target, options: .atomic)
            } catch {
                throw WriteError(description: "cannot write '\(shownAs)/\(file.name)': \(error.localizedDescription)")
            }
            changes.written.append(file.name)
        }
        let generated = Set(files.map(\.name))
        let present = (try? manager.contentsOfDirectory(atPath: url.path)) ?? []
        for name in present.sorted() where name.hasSuffix(".swift") && !generated.contains(name) {
            let path = url.appendingPathComponent(name).path
            guard Self.isGenerated(path) else { continue }
            do {
                try manager.removeItem(atPath: path)
            } catch {
                throw WriteError(description: "cannot remove '\(shownAs)/\(name)': \(error.localizedDescription)")
            }
            changes.removed.append(name)
        }
        return changes
    }

    /// Whether the file at `path` starts with the generator's header line.
    static func isGenerated(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = Data((CodeGenerator.header + "\n").utf8)
        let start = (try? handle.read(upToCount: header.count)) ?? nil
        return start == header
    }
}
