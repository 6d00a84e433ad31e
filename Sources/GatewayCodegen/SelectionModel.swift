import GraphQLLanguage

/// The selections one generated struct decodes: fields merged by response key, the named
/// fragments spread into it, and the type conditions it offers as `asType` accessors.
final class SelectionModel {
    /// The schema type the selections apply to.
    let typeName: String
    /// Whether that type is an interface or a union, so the struct reads `__typename`.
    let isAbstract: Bool
    /// The object types a value can have here.
    let possibleTypes: [String]
    var fields: [FieldSelection] = []
    var fragments: [FragmentUse] = []
    var conditions: [TypeCondition] = []

    init(typeName: String, isAbstract: Bool, possibleTypes: [String]) {
        self.typeName = typeName
        self.isAbstract = isAbstract
        self.possibleTypes = possibleTypes
    }
}

/// One field of a generated struct.
struct FieldSelection {
    /// The key in the response: the alias, or else the field's name.
    var responseKey: String
    /// The field's type in the schema.
    var type: Schema.TypeRef
    /// The schema's description of the field.
    var description: String?
    /// Whether the field may be absent (`@include`, `@skip`, `@defer`), so it is optional.
    var isConditional: Bool
    /// The sub-selections, for fields of object, interface or union type.
    var selection: SelectionModel?
}

/// A named fragment spread into a struct, exposed as a property of the fragment's type.
struct FragmentUse {
    var name: String
    /// The `__typename` values the fragment applies to; `nil` when it applies to every value.
    var typeNames: [String]?
    /// Whether a directive may leave it out.
    var isConditional: Bool
}

/// An inline fragment whose type condition narrows the type: an `asType` accessor.
struct TypeCondition {
    var typeName: String
    /// The `__typename` values it applies to.
    var typeNames: [String]
    var selection: SelectionModel
}
