import GraphQLLanguage

extension GenerationPlan {
    /// The generated files, sorted by name.
    mutating func files() -> [GeneratedFile] {
        var files: [GeneratedFile] = []
        var schemaTypes = SchemaTypeRenderer(names: names)
        let recursive = recursiveInputTypes()
        for typeName in usedTypes.sorted() {
            guard let type = schema.type(named: typeName), let swiftName = names.schemaTypes[typeName] else { continue }
            var writer = SwiftWriter()
            let before = schemaTypes.modules
            if type.kind == .enum {
                schemaTypes.renderEnum(type, into: &writer)
            } else {
                schemaTypes.renderInputObject(type, isRecursive: recursive.contains(typeName), into: &writer)
            }
            let modules = schemaTypes.modules.subtracting(before)
            files.append(Self.file(swiftName, imports: modules.sorted(), body: writer.text))
        }
        for fragment in fragmentDefinitions {
            let name = fragment.node.name.value
            guard let model = fragmentModels[name], let swiftName = names.fragments[name] else { continue }
            var writer = SwiftWriter()
            var renderer = SelectionRenderer(names: names)
            renderer.render(
                swiftName, model: model,
                documentation: "The fragment `\(name)` on `\(fragment.node.typeCondition.name.value)` "
                    + "of `\(fragment.fileName)`.",
                into: &writer)
            files.append(Self.file(swiftName, imports: renderer.modules.sorted(), body: writer.text))
        }
        for operation in operationDefinitions {
            guard let name = operation.node.name?.value, let swiftName = operationTypes[name],
                  let model = dataModels[name], let texts = texts(of: name, at: operation.location)
            else { continue }
            var writer = SwiftWriter()
            var renderer = OperationRenderer(names: names)
            renderer.render(
                operation.node, typeName: swiftName, fileName: operation.fileName, texts: texts, data: model,
                into: &writer)
            let always = ["Gateway", "GraphQLLanguage"]
            let imports = always + renderer.modules.subtracting(always).sorted()
            files.append(Self.file(swiftName, imports: imports, body: writer.text))
        }
        return files.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    private static func file(_ typeName: String, imports: [String], body: String) -> GeneratedFile {
        var text = CodeGenerator.header + "\n\n"
        if !imports.isEmpty {
            text += imports.map { "import \($0)\n" }.joined() + "\n"
        }
        return GeneratedFile(name: typeName + ".swift", contents: text + body)
    }

    /// The text sent (with `__typename` added) and the normalized text of the operation as written.
    private mutating func texts(of name: String, at location: SourceLocation?) -> OperationRenderer.Texts? {
        do throws(OperationSelectionError) {
            let sent = try OperationSelection(document: completed, operationName: name)
            let asWritten = try OperationSelection(document: written, operationName: name)
            return OperationRenderer.Texts(
                text: Printer.print(sent), normalizedText: try Normalizer.normalizedText(of: asWritten))
        } catch {
            diagnostics.append(Diagnostic(message: error.description, locations: location.map { [$0] } ?? []))
            return nil
        }
    }

    /// The input objects that contain themselves through members that are not lists: written as
    /// final classes, since a struct cannot.
    private func recursiveInputTypes() -> Set<String> {
        var result: Set<String> = []
        for typeName in usedTypes where schema.type(named: typeName)?.kind == .inputObject {
            var stack = [typeName]
            var seen: Set<String> = []
            search: while let current = stack.popLast() {
                guard let type = schema.type(named: current) else { continue }
                for field in type.inputFields where field.type.listDepth == 0 {
                    let inner = schema.namedType(of: field.type)
                    guard inner.kind == .inputObject else { continue }
                    if inner.name == typeName {
                        result.insert(typeName)
                        break search
                    }
                    if seen.insert(inner.name).inserted { stack.append(inner.name) }
                }
            }
        }
        return result
    }
}
