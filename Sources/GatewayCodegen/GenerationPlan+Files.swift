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
        let writtenFragments = fragmentDefinitions.map { Definition.fragment($0.node) }
        let sentFragments = completedFragments.map { Definition.fragment($0) }
        for (index, operation) in operationDefinitions.enumerated() {
            guard let swiftName = operationTypes[index], let model = dataModels[index],
                  let texts = texts(sent: [.operation(completedOperations[index])] + sentFragments,
                                    asWritten: [.operation(operation.node)] + writtenFragments,
                                    at: operation.location)
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
        return Self.distinctIgnoringCase(files)
    }

    /// The files sorted by name, where a name that differs only by case from an earlier one gets
    /// the first number from 2 that makes it distinct (`GetcustomerOrdersQuery2.swift` after
    /// `GetCustomerOrdersQuery.swift`): on a case-insensitive file system neither overwrites the other.
    static func distinctIgnoringCase(_ files: [GeneratedFile]) -> [GeneratedFile] {
        let sorted = files.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        var taken = Set(sorted.map { $0.name.lowercased() })
        guard taken.count < sorted.count else { return sorted }
        var seen: Set<String> = []
        var result: [GeneratedFile] = []
        for var file in sorted {
            if !seen.insert(file.name.lowercased()).inserted {
                let stem = file.name.hasSuffix(".swift") ? String(file.name.dropLast(6)) : file.name
                var number = 2
                while taken.contains("\(stem)\(number).swift".lowercased()) { number += 1 }
                file.name = "\(stem)\(number).swift"
                taken.insert(file.name.lowercased())
            }
            result.append(file)
        }
        return result.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    private static func file(_ typeName: String, imports: [String], body: String) -> GeneratedFile {
        var text = CodeGenerator.header + "\n\n"
        if !imports.isEmpty {
            text += imports.map { "import \($0)\n" }.joined() + "\n"
        }
        return GeneratedFile(name: typeName + ".swift", contents: text + body)
    }

    /// The text sent (with `__typename` added) and the normalized text of the operation as written,
    /// each picked from a document of the operation and every fragment.
    private mutating func texts(
        sent: [Definition], asWritten: [Definition], at location: SourceLocation?
    ) -> OperationRenderer.Texts? {
        do throws(OperationSelectionError) {
            let sent = try OperationSelection(document: Document(definitions: sent))
            let asWritten = try OperationSelection(document: Document(definitions: asWritten))
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
