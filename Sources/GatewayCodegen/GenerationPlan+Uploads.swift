import GraphQLLanguage

extension GenerationPlan {
    /// Refuses, at the variable's place, what a generated operation cannot send: a file inside
    /// an input object (generated operations send files only as variables of their own, or lists
    /// of them), and a variable named `uploads` beside files, which would take the name of the
    /// `uploads` property that lists them.
    mutating func checkUploads() {
        for operation in operationDefinitions {
            let variables = operation.node.variableDefinitions
            let hasFiles = variables.contains { names.isUpload($0.type.namedType.name.value) }
            for variable in variables {
                let name = variable.variable.name.value
                let place = operation.source.map { [$0.location(at: variable.range.start)] }
                    ?? operation.location.map { [$0] } ?? []
                var seen: Set<String> = []
                if let path = fileInside(variable.type.namedType.name.value, seen: &seen) {
                    diagnostics.append(Diagnostic(
                        message: "$\(name) holds a file inside an input object (\(path.joined(separator: " → "))), "
                            + "which generated operations cannot send: they send files only as variables of their "
                            + "own ($image: Upload!) or lists of them ($files: [Upload!]!). Declare the file as a "
                            + "variable of its own, or send this operation by name with "
                            + "provider.fetch(_:variables:uploads:as:).",
                        locations: place))
                }
                if hasFiles, name == "uploads" {
                    diagnostics.append(Diagnostic(
                        message: "The variable $uploads would clash with the uploads property that lists the files "
                            + "of \(operation.node.name?.value ?? "this operation"); rename it.",
                        locations: place))
                }
            }
        }
    }

    /// The way to the first file inside the input object `typeName` (`["PostInput.cover"]`, or
    /// `["PostInput.attachments", "AttachmentInput.file"]`), or `nil` when it holds none.
    private func fileInside(_ typeName: String, seen: inout Set<String>) -> [String]? {
        guard let type = schema.type(named: typeName), type.kind == .inputObject, seen.insert(typeName).inserted
        else { return nil }
        for field in type.inputFields {
            let leaf = schema.namedType(of: field.type).name
            if names.isUpload(leaf) { return ["\(typeName).\(field.name)"] }
            if let rest = fileInside(leaf, seen: &seen) { return ["\(typeName).\(field.name)"] + rest }
        }
        return nil
    }
}
