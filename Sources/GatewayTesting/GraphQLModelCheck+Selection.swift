import GraphQLLanguage

extension GraphQLModelCheck {
    /// One level of a field's type, outermost first: `[Genre!]` has a nullable list level and a
    /// non-null named level.
    struct Level: Sendable {
        var isList: Bool
        var isNullable: Bool
    }

    /// What a leaf field holds.
    enum Leaf: Sendable {
        /// A scalar, by name.
        case scalar(String)
        /// An enum's values, in declaration order.
        case enumeration([String])
    }

    /// The fields a composite field holds when its value is one object type.
    struct Case: Sendable {
        /// The object type.
        var typeName: String
        /// Indices into ``Selection/fields``, in the order the query first selects them.
        var fields: [Int]
    }

    /// One place a response can hold a value: a field as the query selects it on one object type.
    struct SelectedField: Sendable {
        /// The key the value appears under: the alias, or the field's name.
        var responseKey: String
        /// The field's name in the schema.
        var name: String
        /// The object type the field is selected on.
        var parentType: String
        /// The field's type as the schema declares it, for example `[Genre!]!`.
        var typeText: String
        /// The named type at the core of the field's type.
        var namedType: String
        /// The levels of the type, outermost first; the last is the named type.
        var levels: [Level]
        /// The directive that may leave the field out of a response, such as `@include(if: $full)`;
        /// `nil` when the response always holds it.
        var condition: String?
        /// What a leaf field holds; `nil` for an object, interface or union.
        var leaf: Leaf?
        /// One case per object type the value can be, in the schema's order; empty for a leaf.
        var cases: [Case]
        /// The field holding this one and the case it belongs to; `nil` for the root.
        var parent: (field: Int, caseIndex: Int)?

        /// The field as the query selects it: `name: String`, or `artist: name` of type `String`.
        var selectedText: String {
            responseKey == name ? "\"\(name): \(typeText)\"" : "\"\(responseKey): \(name)\" of type \(typeText)"
        }
    }

    /// An operation's selection laid out for one schema: every field on every object type it can be
    /// selected on, fragments resolved. Field 0 is the root.
    struct Selection: Sendable {
        var fields: [SelectedField] = []
        /// Why the layout stopped early, when the selection is larger than a check covers.
        var truncation: String?
    }

    /// The most fields a check lays out: each is one response or a few, and each response holds
    /// them all.
    static let maximumFields = 2_000
    /// The deepest nesting of fields a check lays out.
    static let maximumDepth = 64
}

/// Lays out an operation's selection against a schema (graphql-js `CollectFields`, per object type).
struct SelectionLayout {
    let schema: Schema
    let fragments: [String: FragmentDefinition]
    var selection = GraphQLModelCheck.Selection()
    /// The object types each abstract type can be, by name.
    private var possibleNames: [String: Set<String>] = [:]

    init(schema: Schema, fragments: [FragmentDefinition]) {
        self.schema = schema
        var byName: [String: FragmentDefinition] = [:]
        for fragment in fragments where byName[fragment.name.value] == nil { byName[fragment.name.value] = fragment }
        self.fragments = byName
    }

    /// A field selected on `parentType`, merged from every place the selection names its key.
    private struct Collected {
        var responseKey: String
        var name: String
        var sets: [SelectionSet]
        var condition: String?
    }

    /// Lays out the root: field 0, whose one case is the root type.
    mutating func layOut(_ operation: OperationDefinition, rootType: Schema.NamedType) {
        selection.fields.append(GraphQLModelCheck.SelectedField(
            responseKey: "", name: "", parentType: "", typeText: rootType.name + "!", namedType: rootType.name,
            levels: [.init(isList: false, isNullable: false)], condition: nil, leaf: nil, cases: [], parent: nil))
        let fields = layOutCase([operation.selectionSet], on: rootType, parent: (0, 0), depth: 0)
        selection.fields[0].cases = [GraphQLModelCheck.Case(typeName: rootType.name, fields: fields)]
    }

    /// Lays out the fields `sets` select on the object type `type`; returns their indices.
    private mutating func layOutCase(
        _ sets: [SelectionSet], on type: Schema.NamedType, parent: (field: Int, caseIndex: Int), depth: Int
    ) -> [Int] {
        var collected: [Collected] = []
        var positions: [String: Int] = [:]
        var spread: Set<String> = []
        for set in sets {
            collect(set, on: type, condition: nil, visiting: [], into: &collected, positions: &positions,
                    spread: &spread)
        }
        var indices: [Int] = []
        for field in collected {
            guard selection.fields.count < GraphQLModelCheck.maximumFields else {
                selection.truncation = selection.truncation ?? "the selection lays out to more than "
                    + "\(GraphQLModelCheck.maximumFields) fields (counting each object type an interface or union "
                    + "can be); the check covers the first \(GraphQLModelCheck.maximumFields)"
                break
            }
            guard let index = layOutField(field, on: type, parent: parent, depth: depth) else { continue }
            indices.append(index)
        }
        return indices
    }

    private mutating func layOutField(
        _ field: Collected, on type: Schema.NamedType, parent: (field: Int, caseIndex: Int), depth: Int
    ) -> Int? {
        guard let shape = shape(of: field.name, on: type) else { return nil }
        let named = shape.named
        let leaf: GraphQLModelCheck.Leaf? = switch named.kind {
        case .enum: .enumeration(named.enumValues.map(\.name))
        case .scalar: .scalar(named.name)
        default: nil
        }
        let index = selection.fields.count
        selection.fields.append(GraphQLModelCheck.SelectedField(
            responseKey: field.responseKey, name: field.name, parentType: type.name, typeText: shape.text,
            namedType: named.name, levels: shape.levels, condition: field.condition, leaf: leaf, cases: [],
            parent: parent))
        guard leaf == nil else { return index }
        guard depth < GraphQLModelCheck.maximumDepth else {
            selection.truncation = selection.truncation ?? "the selection nests fields more than "
                + "\(GraphQLModelCheck.maximumDepth) deep; the check covers the first "
                + "\(GraphQLModelCheck.maximumDepth) levels"
            return index
        }
        var cases: [GraphQLModelCheck.Case] = []
        for (caseIndex, object) in schema.possibleTypes(of: named).enumerated() {
            let fields = layOutCase(field.sets, on: object, parent: (index, caseIndex), depth: depth + 1)
            cases.append(GraphQLModelCheck.Case(typeName: object.name, fields: fields))
        }
        selection.fields[index].cases = cases
        return index
    }

    /// A field's type on an object type, meta-fields included: as printed, its named type and its
    /// levels; `nil` when the type has no such field.
    private func shape(
        of name: String, on type: Schema.NamedType
    ) -> (text: String, named: Schema.NamedType, levels: [GraphQLModelCheck.Level])? {
        let single = { (nullable: Bool) in [GraphQLModelCheck.Level(isList: false, isNullable: nullable)] }
        switch name {
        case "__typename": return schema.type(named: "String").map { ("String!", $0, single(false)) }
        case "__schema": return schema.type(named: "__Schema").map { ("__Schema!", $0, single(false)) }
        case "__type": return schema.type(named: "__Type").map { ("__Type", $0, single(true)) }
        default: break
        }
        guard let typeRef = type.field(named: name)?.type else { return nil }
        var levels: [GraphQLModelCheck.Level] = []
        var current: Schema.TypeRef? = typeRef
        while let level = current {
            levels.append(.init(isList: level.isList, isNullable: !level.isNonNull))
            current = level.listItem
        }
        return (schema.name(of: typeRef), schema.namedType(of: typeRef), levels)
    }

    /// Adds the fields `set` selects on `type`, following fragments whose type condition applies.
    private mutating func collect(
        _ set: SelectionSet, on type: Schema.NamedType, condition: String?, visiting: Set<String>,
        into collected: inout [Collected], positions: inout [String: Int], spread: inout Set<String>
    ) {
        for item in set.selections {
            let combined: String?
            switch Self.inclusion(item.directives) {
            case .never: continue
            case .always: combined = condition
            case .when(let text): combined = condition.map { $0 + " " + text } ?? text
            }
            switch item {
            case .field(let field):
                let key = field.responseKey
                if let position = positions[key] {
                    if combined == nil { collected[position].condition = nil }
                    if let set = field.selectionSet { collected[position].sets.append(set) }
                } else {
                    positions[key] = collected.count
                    collected.append(Collected(
                        responseKey: key, name: field.name.value, sets: field.selectionSet.map { [$0] } ?? [],
                        condition: combined))
                }
            case .inlineFragment(let fragment):
                guard fragment.typeCondition.map({ applies($0.name.value, to: type) }) ?? true else { continue }
                collect(fragment.selectionSet, on: type, condition: combined, visiting: visiting,
                        into: &collected, positions: &positions, spread: &spread)
            case .fragmentSpread(let fragmentSpread):
                let name = fragmentSpread.name.value
                // A fragment spread again under the same condition adds nothing; skipping it keeps
                // fragments that spread each other several times from being walked exponentially often.
                guard !visiting.contains(name), spread.insert(name + "\u{0}" + (combined ?? "")).inserted,
                      let fragment = fragments[name], applies(fragment.typeCondition.name.value, to: type)
                else { continue }
                collect(fragment.selectionSet, on: type, condition: combined, visiting: visiting.union([name]),
                        into: &collected, positions: &positions, spread: &spread)
            }
        }
    }

    /// Whether a fragment on `condition` applies to the object type `type`.
    private mutating func applies(_ condition: String, to type: Schema.NamedType) -> Bool {
        if condition == type.name { return true }
        if let names = possibleNames[condition] { return names.contains(type.name) }
        guard let abstract = schema.type(named: condition) else { return false }
        let names = Set(schema.possibleTypes(of: abstract).map(\.name))
        possibleNames[condition] = names
        return names.contains(type.name)
    }

    /// What `@skip` and `@include` make of a selection.
    enum Inclusion {
        /// A literal leaves it out of every response.
        case never
        /// Every response holds it.
        case always
        /// Variables decide; the directives that may leave it out.
        case when(String)
    }

    static func inclusion(_ directives: [Directive]) -> Inclusion {
        var texts: [String] = []
        for directive in directives where directive.name.value == "skip" || directive.name.value == "include" {
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
            let skips = directive.name.value == "skip"
            switch argument.value {
            case .boolean(let literal):
                if literal.value == skips { return .never }
            default:
                texts.append("@\(directive.name.value)(if: \(Printer.print(argument.value)))")
            }
        }
        return texts.isEmpty ? .always : .when(texts.joined(separator: " "))
    }
}
