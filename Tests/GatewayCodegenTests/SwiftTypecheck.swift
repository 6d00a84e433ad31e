import Foundation
import GatewayCodegen
import GatewayTestSupport

/// Type-checks generated files with `swiftc -typecheck -swift-version 6 -warnings-as-errors`
/// against the Gateway and GraphQLLanguage modules this test run was built with.
enum SwiftTypecheck {
    /// The folder holding `Gateway.swiftmodule` and `GraphQLLanguage.swiftmodule`, if the build has one.
    static let modules: URL? = {
        let build = CodegenFixtures.packageRoot.appendingPathComponent(".build")
        var candidates = ["debug/Modules", "release/Modules"].map { build.appendingPathComponent($0) }
        if let triples = try? FileManager.default.contentsOfDirectory(atPath: build.path) {
            for triple in triples.sorted() where triple.contains("-") {
                candidates.append(build.appendingPathComponent(triple).appendingPathComponent("debug/Modules"))
            }
        }
        return candidates.first { folder in
            ["Gateway", "GraphQLLanguage"].allSatisfy {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0).swiftmodule").path)
            }
        }
    }()

    /// The `swiftc` on the search path.
    static let compiler: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static var isAvailable: Bool { modules != nil && compiler != nil }

    /// The compiler's messages when the files do not type-check cleanly; `nil` when they do.
    static func problems(in files: [GeneratedFile]) async throws -> String? {
        guard let modules, let compiler else { throw CodegenFixtures.Failure("no swiftc or no built modules") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url)
            paths.append(url.path)
        }
        let process = Process()
        process.executableURL = compiler
        process.arguments = ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path,
                             "-module-name", "Generated"] + paths
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        // The status arrives through the termination handler (buffered by the stream), never
        // through `waitUntilExit`, and the output is read to its end on a thread of its own.
        let exit = AsyncStream<Int32> { continuation in
            process.terminationHandler = { ended in
                continuation.yield(ended.terminationStatus)
                continuation.finish()
            }
        }
        // The compiler takes both cores for seconds: it runs in the timed checks' turn, so that no
        // check with a real deadline or timeout runs beside it.
        let (status, output) = try await OffPool.exclusiveOfTimedTests {
            try process.run()
            let reader = pipe.fileHandleForReading
            let output = try await OffPool.blocking { reader.readDataToEndOfFile() }
            var status: Int32 = -1
            for await code in exit { status = code }
            return (status, output)
        }
        guard status != 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
