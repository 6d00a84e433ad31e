import GraphQLLanguage

extension OperationRenderer {
    /// The `uploads` property of an operation with file variables (`$image: Upload!`, lists of
    /// them): each file keyed by the variable path it fills, `image` or `files.0`, `files.1`…
    /// The variables themselves encode as `null`, the placeholder the multipart request
    /// specification wants. Nothing is written for an operation without files.
    func renderUploads(_ variables: [VariableDefinition], into writer: inout SwiftWriter) {
        let files = variables.filter { names.isUpload($0.type.namedType.name.value) }
        guard !files.isEmpty else { return }
        let listed = files.map { "`$\($0.variable.name.value)`" }
        writer.line()
        writer.documentation(
            "The files of " + Self.sentence(listed) + ", sent by the GraphQL multipart request specification.")
        writer.block("\(names.access)var uploads: [String: GraphQLUpload] {") { writer in
            writer.line("var uploads: [String: GraphQLUpload] = [:]")
            for file in files {
                let name = file.variable.name.value
                // A variable with a default is optional in Swift, whatever its GraphQL type.
                let type = file.defaultValue == nil ? file.type : file.type.nullable
                Self.fill(path: name, from: "self." + SwiftNames.escaped(name), type: type, depth: 1, into: &writer)
            }
            writer.line("return uploads")
        }
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func sentence(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The lines that put the files of `expression` (of the variable type `type`) in `uploads`
    /// under `path`; a list is walked with its index appended to the path, level by level.
    private static func fill(
        path: String, from expression: String, type: TypeReference, depth: Int, into writer: inout SwiftWriter
    ) {
        switch type {
        case .nonNull(let nonNull):
            fill(path: path, from: expression, type: nonNull.type, depth: depth, nonNull: true, into: &writer)
        default:
            fill(path: path, from: expression, type: type, depth: depth, nonNull: false, into: &writer)
        }
    }

    private static func fill(
        path: String, from expression: String, type: TypeReference, depth: Int, nonNull: Bool,
        into writer: inout SwiftWriter
    ) {
        guard case .list(let list) = type else {
            // A `nil` file (an optional variable or list element) adds nothing.
            writer.line("uploads[\"\(path)\"] = \(expression)")
            return
        }
        let suffix = depth == 1 ? "" : String(depth)
        let index = "index" + suffix
        let element = (list.type.isList ? "files" : "file") + suffix
        let sequence = nonNull ? expression : "(\(expression) ?? [])"
        writer.block("for (\(index), \(element)) in \(sequence).enumerated() {") { writer in
            fill(path: path + ".\\(\(index))", from: element, type: list.type, depth: depth + 1, into: &writer)
        }
    }
}

extension TypeReference {
    /// This type without its non-null marker.
    fileprivate var nullable: TypeReference {
        switch self {
        case .nonNull(let nonNull): nonNull.type
        default: self
        }
    }

    /// Whether this type, without its non-null marker, is a list.
    fileprivate var isList: Bool {
        switch self {
        case .list: true
        case .nonNull(let nonNull): nonNull.type.isList
        case .named: false
        }
    }
}
