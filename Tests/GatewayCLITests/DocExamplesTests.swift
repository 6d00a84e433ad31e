import Foundation
import GatewayTesting
import Testing

/// Every ```swift block of the doc comments under `Sources/` (and of the README) stands, line for
/// line, in a `.swift` file of the `Examples/` package, which `.ci/run` builds: so no example
/// stops compiling unnoticed. Lines are compared trimmed, blank lines left out.
@Suite struct DocExamplesTests {
    static let root = QueryFileChecks.packageRoot(containing: #filePath)

    @Test func everyDocCommentExampleIsInTheExamplesPackage() throws {
        let blocks = try Self.swiftFiles(under: Self.root.appendingPathComponent("Sources"))
            .flatMap { try ExampleBlock.all(inDocCommentsOf: $0, root: Self.root) }
        try #require(!blocks.isEmpty, "no ```swift block was found in the doc comments under Sources/")
        try Self.expectInExamples(blocks, belongIn: "Examples/Sources/DocExamples/ (inside a function whose "
                                      + "parameters are the values the example takes as given)")
    }

    @Test
    func everyReadmeExampleIsInTheExamplesPackage() throws {
        let readme = Self.root.appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = ExampleBlock.all(in: text, path: "README.md", docComments: false)
        try #require(!blocks.isEmpty, "no ```swift block was found in README.md")
        try Self.expectInExamples(blocks, belongIn: "Examples/Sources/Bookshelf/ or Examples/Tests/BookshelfTests/")
    }

    @Test func blocksAreReadFromDocCommentsOnly() {
        let text = """
            /// Sends it.
            ///
            /// ```swift
            /// let user = try await provider.value(endpoint)
            ///
            ///     print(user)
            /// ```
            // ```swift
            // notAnExample()
            // ```
            func send() {}
            """
        let blocks = ExampleBlock.all(in: text, path: "Sources/A.swift", docComments: true)
        #expect(blocks.map(\.lines) == [["let user = try await provider.value(endpoint)", "print(user)"]])
        #expect(blocks.map(\.line) == [4])
    }

    @Test func aBlockMustStandContiguously() {
        let example = ["let a = 1", "print(a)"]
        #expect(ExampleBlock.contains(["func f() {", "let a = 1", "print(a)", "}"], example))
        #expect(!ExampleBlock.contains(["let a = 1", "_ = a", "print(a)"], example))
        #expect(!ExampleBlock.contains(["let a = 1"], example))
    }

    /// Records an issue at each block that no `.swift` file under `Examples/` holds, naming
    /// `destination` as the place it belongs.
    static func expectInExamples(_ blocks: [ExampleBlock], belongIn destination: String) throws {
        let examples = try swiftFiles(under: root.appendingPathComponent("Examples"))
            .map { ExampleBlock.normalized(try String(contentsOf: $0, encoding: .utf8)) }
        try #require(!examples.isEmpty, "no .swift file was found under Examples/")
        for block in blocks where !examples.contains(where: { ExampleBlock.contains($0, block.lines) }) {
            Issue.record(
                """
                \(block.path):\(block.line): the example starting `\(block.lines.first ?? "")` is not in any \
                .swift file under Examples/. Copy its lines, unchanged and together, into \(destination), \
                and build with `swift build --package-path Examples`.
                """,
                // A file ID is "Module/File" (Swift Testing stops the process on one without the
                // module): the README's blocks have no module of their own.
                sourceLocation: SourceLocation(
                    fileID: "Gateway/" + ((block.path as NSString).lastPathComponent), filePath: root.appendingPathComponent(block.path).path,
                    line: block.line, column: 1)
            )
        }
    }

    /// The `.swift` files under `folder`, in path order, leaving out hidden folders such as `.build`.
    static func swiftFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]
        ) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }
}

/// One ```swift block: where it starts and its lines, trimmed, without blank lines.
struct ExampleBlock: Equatable {
    /// The file's path relative to the package root.
    var path: String
    /// The 1-based line of the block's first line of code.
    var line: Int
    var lines: [String]

    /// The blocks of the `///` doc comments of the file at `url`.
    static func all(inDocCommentsOf url: URL, root: URL) throws -> [ExampleBlock] {
        let path = url.standardizedFileURL.path, rootPath = root.standardizedFileURL.path + "/"
        let relative = path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
        return all(in: try String(contentsOf: url, encoding: .utf8), path: relative, docComments: true)
    }

    /// The blocks of `text`: of its `///` comments when `docComments`, else of its Markdown.
    static func all(in text: String, path: String, docComments: Bool) -> [ExampleBlock] {
        var blocks: [ExampleBlock] = []
        var current: ExampleBlock?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if docComments {
                guard line.hasPrefix("///") else {
                    current = nil  // the comment ended without closing its block
                    continue
                }
                line = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            }
            if var block = current {
                if line == "```" {
                    blocks.append(block)
                    current = nil
                } else if !line.isEmpty {
                    if block.lines.isEmpty { block.line = index + 1 }
                    block.lines.append(line)
                    current = block
                }
            } else if line == "```swift" {
                current = ExampleBlock(path: path, line: index + 2, lines: [])
            }
        }
        return blocks.filter { !$0.lines.isEmpty }
    }

    /// The lines of a file, trimmed, without blank lines.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// Whether `lines` holds `block` as one contiguous run.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty, block.count <= lines.count else { return block.isEmpty }
        return (0...(lines.count - block.count)).contains { start in
            lines[start..<(start + block.count)].elementsEqual(block)
        }
    }
}
