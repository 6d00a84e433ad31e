import GraphQLLanguage

/// Executes one operation of a validated document against resolvers, as the specification's
/// Execution section describes, for the example backend: fields in the order selected, merged
/// by response key (aliases); fragments and inline fragments whose type condition applies to the
/// object's type; `@skip` and `@include`; `__typename`; lists and nulls completed against the
/// schema's types, a `null` (or an error) in a non-null position making the nearest nullable
/// parent `null`; every field error with its message, location and path.
///
/// Validation (the backend runs the `Validator` first) guarantees that fields exist and fragments
/// do not cycle; `maxDepth` bounds the recursion all the same.
struct ExampleGraphQLExecutor {
    let schema: ExampleGraphQLSchema
    let source: Source
    let fragments: [String: FragmentDefinition]
    let input: ExampleGraphQLInput
    /// The errors so far, in the response's shape.
    private(set) var errors: [JSONValue] = []

    /// The deepest nesting of selections followed.
    static let maxDepth = 64

    init(schema: ExampleGraphQLSchema, source: Source, fragments: [String: FragmentDefinition],
         input: ExampleGraphQLInput) {
        self.schema = schema
        self.source = source
        self.fragments = fragments
        self.input = input
    }

    /// Executes `selectionSet` on the root object.
    ///
    /// - Returns: `data`: the root's fields, or `null` when an error reached the root.
    mutating func execute(_ selectionSet: SelectionSet, root: ExampleGraphQLObject) -> JSONValue {
        execute(selectionSet.selections, on: root, path: [], depth: 0) ?? .null
    }

    // MARK: Fields

    /// The object's selected fields; `nil` when a non-null field failed (the object is `null`).
    private mutating func execute(_ selections: [Selection], on object: ExampleGraphQLObject, path: [JSONValue],
                                  depth: Int) -> JSONValue? {
        guard depth <= Self.maxDepth else {
            fail("the selection is nested deeper than \(Self.maxDepth) levels", at: selections.first?.range, path)
            return nil
        }
        var result = JSONObject()
        var visited: Set<String> = []
        for (key, fields) in collect(selections, typeName: object.typeName, visited: &visited) {
            guard let field = fields.first else { continue }
            let fieldPath = path + [.string(key)]
            if field.name.value == "__typename" {
                result[key] = .string(object.typeName)
                continue
            }
            guard let definition = schema.field(field.name.value, on: object.typeName) else {
                fail("Cannot query field \"\(field.name.value)\" on type \"\(object.typeName)\".", at: field.range,
                     fieldPath)
                return nil
            }
            let value: ExampleGraphQLValue
            do {
                let arguments = try input.arguments(definition.arguments, given: field.arguments,
                                                    of: "\(object.typeName).\(field.name.value)")
                value = try object.resolve(field.name.value, arguments)
            } catch let error as ExampleGraphQLInput.Failure {
                fail(error.message, at: field.range, fieldPath)
                guard case .nonNull = definition.type else { result[key] = JSONValue.null; continue }
                return nil
            } catch let error as ExampleGraphQLFieldError {
                fail(error.message, at: field.range, fieldPath, code: error.code)
                guard case .nonNull = definition.type else { result[key] = JSONValue.null; continue }
                return nil
            } catch {
                fail("\(error)", at: field.range, fieldPath)
                guard case .nonNull = definition.type else { result[key] = JSONValue.null; continue }
                return nil
            }
            let subselections = fields.flatMap { $0.selectionSet?.selections ?? [] }
            let site = Site(parent: object.typeName, field: field, subselections: subselections, depth: depth)
            guard let completed = complete(value, as: definition.type, site: site, path: fieldPath) else { return nil }
            result[key] = completed
        }
        return .object(result)
    }

    /// Where a value is completed: the field that produced it and what it selects.
    private struct Site {
        var parent: String
        var field: Field
        var subselections: [Selection]
        var depth: Int
    }

    /// Completes a resolved value against its type; `nil` means "null in a non-null position":
    /// the error is recorded and the nearest nullable parent becomes `null`.
    private mutating func complete(_ value: ExampleGraphQLValue, as type: TypeReference, site: Site,
                                   path: [JSONValue]) -> JSONValue? {
        guard case .nonNull(let wrapper) = type else {
            return completeNullable(value, as: type, site: site, path: path) ?? .null
        }
        guard let completed = completeNullable(value, as: wrapper.type, site: site, path: path) else { return nil }
        if completed.isNull {
            fail("Cannot return null for non-nullable field \(site.parent).\(site.field.name.value).",
                 at: site.field.range, path)
            return nil
        }
        return completed
    }

    private mutating func completeNullable(_ value: ExampleGraphQLValue, as type: TypeReference, site: Site,
                                           path: [JSONValue]) -> JSONValue? {
        switch (value, type) {
        case (.null, _):
            return .null
        case (.list(let items), .list(let list)):
            var completed: [JSONValue] = []
            for (index, item) in items.enumerated() {
                guard let value = complete(item, as: list.type, site: site, path: path + [.number(JSONNumber(index))])
                else { return nil }
                completed.append(value)
            }
            return .array(completed)
        case (.leaf(let json), .named(let named)) where schema.isLeaf(named.name.value):
            return json
        case (.object(let object), .named(let named)) where !schema.isLeaf(named.name.value):
            guard schema.applies(named.name.value, to: object.typeName) else {
                fail("the resolver of \(site.parent).\(site.field.name.value) answered a \(object.typeName), "
                     + "not a \(named.name.value)", at: site.field.range, path)
                return nil
            }
            return execute(site.subselections, on: object, path: path, depth: site.depth + 1)
        default:
            fail("the resolver of \(site.parent).\(site.field.name.value) answered a value that does not fit "
                 + "\(ExampleGraphQLInput.describe(type))", at: site.field.range, path)
            return nil
        }
    }

    // MARK: Collecting fields

    /// The fields selected on an object of type `typeName`, grouped by response key in the order
    /// first selected: fragments expanded when their type condition applies, `@skip`/`@include`
    /// applied, each named fragment expanded once.
    private func collect(_ selections: [Selection], typeName: String, visited: inout Set<String>)
        -> [(key: String, fields: [Field])] {
        var order: [String] = []
        var groups: [String: [Field]] = [:]
        func add(_ field: Field) {
            if groups[field.responseKey] == nil { order.append(field.responseKey) }
            groups[field.responseKey, default: []].append(field)
        }
        var pending = selections[...]
        var stack: [ArraySlice<Selection>] = []
        while true {
            guard let selection = pending.popFirst() else {
                guard let next = stack.popLast() else { break }
                pending = next
                continue
            }
            guard included(selection.directives) else { continue }
            switch selection {
            case .field(let field):
                add(field)
            case .inlineFragment(let fragment):
                if let condition = fragment.typeCondition, !schema.applies(condition.name.value, to: typeName) {
                    continue
                }
                stack.append(pending)
                pending = fragment.selectionSet.selections[...]
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visited.contains(name), let fragment = fragments[name] else { continue }
                visited.insert(name)
                guard schema.applies(fragment.typeCondition.name.value, to: typeName) else { continue }
                stack.append(pending)
                pending = fragment.selectionSet.selections[...]
            }
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// Whether `@skip(if:)` and `@include(if:)` keep the selection.
    private func included(_ directives: [Directive]) -> Bool {
        for directive in directives where directive.name.value == "skip" || directive.name.value == "include" {
            let condition = directive.arguments.first { $0.name.value == "if" }.flatMap { input.json(from: $0.value) }
            let value = condition?.boolValue ?? false
            if directive.name.value == "skip" && value { return false }
            if directive.name.value == "include" && !value { return false }
        }
        return true
    }

    // MARK: Errors

    private mutating func fail(_ message: String, at range: SourceRange?, _ path: [JSONValue], code: String? = nil) {
        errors.append(Self.error(message, at: range.map { [source.location(at: $0.start)] } ?? [], path: path,
                                 code: code))
    }

    /// An error in the response's shape: `message`, `locations`, `path`, `extensions.code`.
    static func error(_ message: String, at locations: [SourceLocation] = [], path: [JSONValue] = [],
                      code: String? = nil) -> JSONValue {
        var error: JSONObject = ["message": .string(message)]
        if !locations.isEmpty {
            error["locations"] = .array(locations.map {
                .object(["line": .number(JSONNumber($0.line)), "column": .number(JSONNumber($0.column))])
            })
        }
        if !path.isEmpty { error["path"] = .array(path) }
        if let code { error["extensions"] = .object(["code": .string(code)]) }
        return .object(error)
    }
}
