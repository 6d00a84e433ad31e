extension SchemaBuilder {
    /// Reports input objects that refer to themselves through non-null fields only, which no finite
    /// value can satisfy (graphql-js `validateInputObjectCircularRefs`).
    ///
    /// A depth-first search with an explicit stack, so a long chain of input types cannot exhaust
    /// the call stack.
    mutating func checkInputObjectCycles(_ schema: Schema) {
        var visited = Array(repeating: false, count: schema.types.count)
        /// Position of each type on the current path, or -1.
        var pathIndexOfType = Array(repeating: -1, count: schema.types.count)
        /// The fields followed so far: (type index holding the field, field index).
        var fieldPath: [(type: Int, field: Int)] = []
        /// Frames: a type being explored and the next field to look at.
        var stack: [(type: Int, nextField: Int)] = []

        for root in schema.types.indices
        where schema.types[root].kind == .inputObject && (definitionOfType[root]?.document ?? -1) >= 0 {
            guard !visited[root] else { continue }
            visited[root] = true
            pathIndexOfType[root] = 0
            stack.append((root, 0))
            while let frame = stack.last {
                let fields = schema.types[frame.type].inputFields
                guard frame.nextField < fields.count else {
                    // Leaving the type: drop it from the path, and the field that led to it.
                    pathIndexOfType[frame.type] = -1
                    stack.removeLast()
                    if !fieldPath.isEmpty { fieldPath.removeLast() }
                    continue
                }
                stack[stack.count - 1].nextField += 1
                let field = fields[frame.nextField]
                let target = field.type.namedIndex
                guard field.type.isNonNull, !field.type.isList, schema.types[target].kind == .inputObject else {
                    continue
                }
                let cycleIndex = pathIndexOfType[target]
                if cycleIndex >= 0 {
                    let cycle = fieldPath[cycleIndex...] + [(frame.type, frame.nextField)]
                    let path = cycle.map { schema.types[$0.type].inputFields[$0.field].name }.joined(separator: ".")
                    let places = cycle.compactMap { step -> Place? in
                        let name = schema.types[step.type].inputFields[step.field].name
                        return inputFieldNode(step.type, name).map { ($0.document, $0.node.range.start) }
                    }
                    report(
                        "Cannot reference Input Object \"\(schema.types[target].name)\" within itself through a "
                            + "series of non-null fields: \"\(path)\".", places
                    )
                    continue
                }
                guard !visited[target] else { continue }
                visited[target] = true
                fieldPath.append((frame.type, frame.nextField))
                pathIndexOfType[target] = fieldPath.count
                stack.append((target, 0))
            }
        }
    }
}
