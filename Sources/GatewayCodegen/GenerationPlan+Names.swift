import GraphQLLanguage

extension GenerationPlan {
    /// Gives every schema type, fragment and operation its Swift name. Names are claimed in a fixed
    /// order (schema types, fragments, named operations, then anonymous operations in file order),
    /// so the same input always gives the same names. Two types may not have the same Swift name;
    /// names that differ only by case are fine (their files are told apart in `files()`).
    mutating func nameTypes() {
        var owners: [String: String] = [:]
        func claim(_ swiftName: String, by owner: String, at location: SourceLocation?) {
            if let other = owners[swiftName] {
                diagnostics.append(Diagnostic(
                    message: "The Swift type \(swiftName) for \(owner) would have the same name as \(other); "
                        + "rename one of them.",
                    locations: location.map { [$0] } ?? []))
            } else {
                owners[swiftName] = "the type for \(owner)"
            }
        }
        for typeName in usedTypes.sorted() {
            let swiftName = GeneratedNames.topLevelName(typeName)
            names.schemaTypes[typeName] = swiftName
            claim(swiftName, by: "the schema type \(typeName)", at: nil)
        }
        for fragment in fragmentDefinitions {
            let swiftName = GeneratedNames.topLevelName(SwiftNames.upperFirst(fragment.node.name.value))
            names.fragments[fragment.node.name.value] = swiftName
            claim(swiftName, by: "the fragment \(fragment.node.name.value)", at: fragment.location)
        }
        var anonymous: [Int] = []
        for (index, operation) in operationDefinitions.enumerated() {
            guard let name = operation.node.name?.value else {
                anonymous.append(index)
                continue
            }
            let swiftName = Self.typeName(SwiftNames.upperFirst(name), kind: operation.node.operation)
            operationTypes[index] = swiftName
            claim(swiftName, by: "the \(operation.node.operation.rawValue) \(name)", at: operation.location)
        }
        for index in anonymous {
            let operation = operationDefinitions[index]
            let kind = operation.node.operation
            let base = SwiftNames.typeName(fromFile: operation.fileName)
            let derived = Self.typeName(base, kind: kind)
            var swiftName = derived
            var number = 2
            while owners[swiftName] != nil {
                swiftName = derived + String(number)
                number += 1
            }
            operationTypes[index] = swiftName
            claim(swiftName, by: "the anonymous \(kind.rawValue) of \(operation.fileName)", at: operation.location)
            warnings.append(Diagnostic(
                message: "This anonymous \(kind.rawValue) becomes the Swift type \(swiftName), named after its file; "
                    + "name the operation (\(kind.rawValue) \(base) { … }) to choose its type's name.",
                locations: operation.location.map { [$0] } ?? [], severity: .warning))
        }
        for (index, operation) in operationDefinitions.enumerated() {
            guard let swiftName = operationTypes[index],
                  operation.node.variableDefinitions.contains(where: { $0.variable.name.value == "Data" })
            else { continue }
            diagnostics.append(Diagnostic(
                message: "The variable $Data would clash with the generated Data type of \(swiftName); rename it.",
                locations: operation.location.map { [$0] } ?? []))
        }
        names.reserved.formUnion(names.schemaTypes.values)
        names.reserved.formUnion(names.fragments.values)
        names.reserved.formUnion(operationTypes.values)
    }

    /// `GetTrackQuery` for `GetTrack`, `TrackQuery` for `TrackQuery`: the name with the kind's
    /// suffix, unless it ends with it already.
    static func typeName(_ base: String, kind: OperationType) -> String {
        let kindName = suffix(kind)
        return GeneratedNames.topLevelName(base.hasSuffix(kindName) ? base : base + kindName)
    }
}
