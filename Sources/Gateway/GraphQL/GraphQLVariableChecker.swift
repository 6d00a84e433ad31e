import GraphQLLanguage

/// Checks variables against an operation's variable definitions before anything is sent, the
/// way a server's input coercion would: required variables present, no unknown ones, `null`
/// only where allowed, built-in scalars, lists and non-null everywhere; enums and input objects
/// when the operation knows its schema (other custom scalars accept any value). Declared
/// defaults fill absent variables.
///
/// Every problem is collected, not only the first. Values are walked with a depth bound, so a
/// hostile value cannot overflow the stack; messages name kinds of values, never the values
/// themselves (variables may hold secrets), except enum names.
struct GraphQLVariableChecker {
    /// How deep inside one variable the checker looks.
    static let maximumDepth = 64

    let operation: GraphQLOperation
    /// Upload paths (`image`, `files.0`): multipart placeholders, accepted as they are.
    let uploads: Set<String>
    private(set) var problems: [GraphQLVariableError] = []

    init(operation: GraphQLOperation, uploads: Set<String>) {
        self.operation = operation
        self.uploads = uploads
    }

    /// A place inside a variable: as shown (`$input.trackID`) and as the multipart map writes it
    /// (`input.trackID`).
    struct Place {
        var variable: String
        var shown: String
        var dotted: String

        func member(_ key: String) -> Place {
            Place(variable: variable, shown: shown + "." + key, dotted: dotted + "." + key)
        }
        func index(_ index: Int) -> Place {
            Place(variable: variable, shown: shown + "[\(index)]", dotted: dotted + ".\(index)")
        }
    }

    /// The variables to send, in definition order, with defaults applied.
    mutating func check(_ given: JSONObject) -> JSONObject {
        let declared = operation.variableNames
        var reported = Set<String>()
        for key in given.keys where !declared.contains(key) && reported.insert(key).inserted {
            let near = NameSuggestions.near(key, in: declared)
            let hint = near.isEmpty ? "" : "; did you mean " + near.map { "$\($0)" }.joined(separator: ", ") + "?"
            let known = declared.isEmpty ? "it declares no variables" : "it declares " + declared.map { "$\($0)" }
                .joined(separator: ", ")
            add(.unknown, Place(variable: key, shown: "$" + key, dotted: key),
                "variable $\(key) is not declared by \(operation) (\(known))\(hint)")
        }
        var result = JSONObject()
        for definition in operation.variableDefinitions {
            let name = definition.variable.name.value
            let type = VariableType(definition.type)
            let place = Place(variable: name, shown: "$" + name, dotted: name)
            if let value = given[name] {
                check(value, type, place, depth: 0)
                result[name] = value
            } else if let defaultValue = definition.defaultValue {
                result[name] = Self.json(defaultValue, depth: 0)
            } else if type.isNonNull {
                add(.missing, place, "variable $\(name) of type \(type) is required but was not given")
            }
        }
        return result
    }

    private mutating func add(_ problem: GraphQLVariableError.Problem, _ place: Place, _ message: String) {
        problems.append(GraphQLVariableError(variable: place.variable, path: place.shown, problem: problem,
                                             message: message))
    }

    private mutating func check(_ value: JSONValue, _ type: VariableType, _ place: Place, depth: Int) {
        if uploads.contains(place.dotted) { return }
        guard depth <= Self.maximumDepth else {
            add(.tooDeep, place, "\(place.shown) is nested more than \(Self.maximumDepth) levels deep")
            return
        }
        switch type {
        case .nonNull(let inner):
            guard !value.isNull else {
                add(.null, place, "\(place.shown) must not be null (its type is \(type))")
                return
            }
            check(value, inner, place, depth: depth)
        case .list(let item):
            switch value {
            case .null: return
            case .array(let items):
                for (index, element) in items.enumerated() {
                    check(element, item, place.index(index), depth: depth + 1)
                }
            default:
                // Input coercion accepts one value where a list is expected.
                check(value, item, place, depth: depth + 1)
            }
        case .named(let name):
            guard !value.isNull else { return }
            checkNamed(value, name, place, depth: depth)
        }
    }

    private mutating func checkNamed(_ value: JSONValue, _ name: String, _ place: Place, depth: Int) {
        if let expected = Self.builtInExpectation(name) {
            if !Self.fits(value, builtIn: name) {
                add(.wrongType, place, "\(place.shown): expected \(name) (\(expected)), got \(value.kindDescription)")
            }
            return
        }
        guard let schema = operation.schema, let named = schema.type(named: name) else { return }
        switch named.kind {
        case .enum:
            guard let text = value.stringValue else {
                add(.wrongType, place, "\(place.shown): expected a value of enum \(name) (a string), "
                    + "got \(value.kindDescription)")
                return
            }
            guard named.enumValue(named: text) == nil else { return }
            let values = named.enumValues.map(\.name)
            let near = NameSuggestions.near(text, in: values)
            let hint = near.isEmpty ? "" : "; did you mean " + near.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            let shownText = text.count > 60 ? String(text.prefix(60)) + "…" : text
            add(.unknownEnumValue, place, "\(place.shown): \"\(shownText)\" is not a value of enum \(name)\(hint) "
                + "(values: \(values.joined(separator: ", ")))")
        case .inputObject:
            guard case .object(let object) = value else {
                add(.wrongType, place, "\(place.shown): expected input object \(name), got \(value.kindDescription)")
                return
            }
            checkInputObject(object, named, schema, place, depth: depth)
        default:
            return
        }
    }

    private mutating func checkInputObject(_ object: JSONObject, _ type: Schema.NamedType, _ schema: Schema,
                                           _ place: Place, depth: Int) {
        let fieldNames = type.inputFields.map(\.name)
        for key in object.keys where type.inputField(named: key) == nil {
            let near = NameSuggestions.near(key, in: fieldNames)
            let hint = near.isEmpty ? "" : "; did you mean " + near.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            add(.unknownField, place.member(key), "\(place.shown): input type \(type.name) has no field "
                + "\"\(key)\"\(hint) (fields: \(fieldNames.joined(separator: ", ")))")
        }
        for field in type.inputFields {
            let fieldType = VariableType(field.type, in: schema)
            if let member = object[field.name] {
                check(member, fieldType, place.member(field.name), depth: depth + 1)
            } else if field.isRequired, !uploads.contains(place.member(field.name).dotted) {
                add(.missingField, place.member(field.name), "\(place.shown): field \(field.name) of input type "
                    + "\(type.name) (type \(fieldType)) is required but was not given")
            }
        }
        if type.isOneOf {
            let set = object.keys.filter { !(object[$0]?.isNull ?? true) }
            if set.count != 1 || object.keys.count != 1 {
                add(.wrongType, place, "\(place.shown): input type \(type.name) is @oneOf, so exactly one of its "
                    + "fields must be given, and not null")
            }
        }
    }

    /// What a built-in scalar accepts, in words; `nil` for a type that is not built in.
    static func builtInExpectation(_ name: String) -> String? {
        switch name {
        case "Int": "a whole number from -2147483648 to 2147483647"
        case "Float": "a number"
        case "String": "a string"
        case "Boolean": "true or false"
        case "ID": "a string or a whole number"
        default: nil
        }
    }

    static func fits(_ value: JSONValue, builtIn name: String) -> Bool {
        switch name {
        case "Int":
            guard let number = value.intValue else { return false }
            return number >= Int(Int32.min) && number <= Int(Int32.max)
        case "Float":
            if case .number = value { return true }
            return false
        case "String": return value.stringValue != nil
        case "Boolean": return value.boolValue != nil
        case "ID": return value.stringValue != nil || value.intValue != nil
        default: return true
        }
    }

    /// A constant GraphQL value as JSON (a declared default). Enum values become strings. The
    /// parser bounds the nesting of values, and so this recursion.
    static func json(_ value: Value, depth: Int) -> JSONValue {
        guard depth < 512 else { return .null }
        switch value {
        case .variable: return .null
        case .int(let literal): return (try? JSONValue(parsing: literal.value)) ?? .string(literal.value)
        case .float(let literal): return (try? JSONValue(parsing: literal.value)) ?? .string(literal.value)
        case .string(let literal): return .string(literal.value)
        case .boolean(let literal): return .bool(literal.value)
        case .null: return .null
        case .enum(let literal): return .string(literal.value)
        case .list(let list): return .array(list.values.map { json($0, depth: depth + 1) })
        case .object(let object):
            return .object(JSONObject(object.fields.map {
                JSONObject.Member(key: $0.name.value, value: json($0.value, depth: depth + 1))
            }))
        }
    }
}

/// A variable's type as the checker walks it: the AST's `TypeReference` or a schema's
/// `TypeRef`, in one shape.
indirect enum VariableType: CustomStringConvertible {
    case named(String)
    case list(VariableType)
    case nonNull(VariableType)

    /// From a variable definition (nesting bounded by the parser's depth limit).
    init(_ reference: TypeReference) {
        switch reference {
        case .named(let named): self = .named(named.name.value)
        case .list(let list): self = .list(VariableType(list.type))
        case .nonNull(let nonNull): self = .nonNull(VariableType(nonNull.type))
        }
    }

    /// From a schema's input field type (at most 63 list levels).
    init(_ type: Schema.TypeRef, in schema: Schema) {
        if type.isNonNull {
            self = .nonNull(VariableType(type.nullable, in: schema))
        } else if let item = type.listItem {
            self = .list(VariableType(item, in: schema))
        } else {
            self = .named(schema.namedType(of: type).name)
        }
    }

    var isNonNull: Bool { if case .nonNull = self { true } else { false } }

    /// `[ID!]!`.
    var description: String {
        switch self {
        case .named(let name): name
        case .list(let item): "[\(item)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }
}
