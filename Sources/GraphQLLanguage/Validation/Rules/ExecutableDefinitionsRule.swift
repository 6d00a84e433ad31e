/// Executable Definitions — https://spec.graphql.org/October2021/#sec-Executable-Definitions
///
/// A document sent for execution holds only operations and fragments; a type-system definition
/// in it is an error (its contents are not checked further).
enum ExecutableDefinitionsRule {
    static func check(_ document: Document, in context: inout ValidationContext) {
        for definition in document.definitions where !definition.isExecutable {
            let name: String
            switch definition {
            case .schema, .schemaExtension: name = "schema"
            case .type(let node): name = "\"\(node.name.value)\""
            case .typeExtension(let node): name = "\"\(node.name.value)\""
            case .directive(let node): name = "\"\(node.name.value)\""
            case .operation, .fragment: continue
            }
            context.report(.executableDefinitions, "The \(name) definition is not executable.",
                           [context.place(definition.range.start)])
        }
    }
}
