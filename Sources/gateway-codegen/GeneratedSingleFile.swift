import GatewayCodegen

/// The generated files joined into one Swift file, as a build plugin declares its output in
/// advance: the header once, the imports of every file once (sorted), then each file's
/// declarations under a `// MARK:` with the name it has when `gateway generate` writes it.
enum GeneratedSingleFile {
    static func join(_ files: [GeneratedFile]) -> String {
        var imports = Set<String>()
        var bodies: [String] = []
        for file in files {
            var lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.first == CodeGenerator.header { lines.removeFirst() }
            var start = 0
            while start < lines.count, lines[start].hasPrefix("import ") || lines[start].isEmpty {
                if lines[start].hasPrefix("import ") { imports.insert(lines[start]) }
                start += 1
            }
            let body = lines[start...].joined(separator: "\n")
            bodies.append("// MARK: - \(file.name)\n\n" + body)
        }
        var text = CodeGenerator.header + "\n\n"
        if !imports.isEmpty { text += imports.sorted().joined(separator: "\n") + "\n\n" }
        text += bodies.joined(separator: "\n")
        if !text.hasSuffix("\n") { text += "\n" }
        return text
    }
}
