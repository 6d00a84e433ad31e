import Foundation

/// The `gateway` executable that `swift build` and `swift test` build beside the test bundle, for
/// tests that run it as a process of its own (to kill it, or to interrupt it).
package enum GatewayExecutable {
    /// The executable, or `nil` when it has not been built.
    ///
    /// - Parameter filePath: a file three folders below the package root (a test file's `#filePath`).
    package static func url(filePath: String = #filePath) -> URL? {
        var candidates: [URL] = []
        if let bundle = CommandLine.arguments.first {
            let folder = URL(fileURLWithPath: bundle).deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("gateway"))
        }
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/gateway"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
