/// A GraphQL schema: its named types, directives and root operation types, ready to validate
/// operations against.
///
/// Build one from SDL with ``Schema/build(_:options:)`` or from an introspection result with
/// ``Schema/build(introspection:)``. Every type reference is resolved to an index into ``types``
/// when the schema is built, so validation compares integers rather than looking names up again.
///
/// ```swift
/// let document = try Parser.parse(Source(sdl, name: "Schemas/music.graphql"), limits: .schemas)
/// let result = Schema.build([document])
/// guard let schema = result.schema else { print(result.diagnostics); return }
/// ```
///
/// The built-in scalars and the introspection types (`__Schema`, `__Type`, ...) are part of every
/// schema, as in graphql-js: `Int`, `Float` and `ID` only when something refers to them.
public struct Schema: Sendable {
    /// Everything a schema holds, as the builder assembles it.
    struct Contents: Sendable {
        var types: [NamedType]
        var directives: [Directive]
        var description: String?
        /// Type name → index into `types`; scalars nothing refers to are left out, as in graphql-js.
        var typeIndexByName: [String: Int]
        /// Directive name → index into `directives`.
        var directiveIndexByName: [String: Int]
        /// Root operation types as indices into `types`, or -1.
        var queryTypeIndex = -1
        var mutationTypeIndex = -1
        var subscriptionTypeIndex = -1
        /// The `__typename`, `__schema` and `__type` meta-fields; see ``FieldRef``.
        var metaFields: [Field]
    }

    /// The contents behind one reference, so that copying a schema costs one retain and reading
    /// a type never copies it.
    final class Storage: Sendable {
        let contents: Contents
        /// The kind of each type, by index.
        let kinds: [TypeKind]
        /// (type index, field name) → field index, for object and interface types.
        let fields: NameIndex
        /// (type index, name) → index of an input object's field or an enum's value.
        let members: NameIndex
        /// (-1, name) → type index, for the types in the type map.
        let typeNames: NameIndex
        /// (-1, name) → directive index.
        let directiveNames: NameIndex

        init(_ contents: Contents) {
            self.contents = contents
            kinds = contents.types.map(\.kind)
            var fieldCount = 0
            var memberCount = 0
            for type in contents.types {
                fieldCount += type.fields.count
                memberCount += type.inputFields.count + type.enumValues.count
            }
            var fields = NameIndex(capacity: fieldCount)
            var members = NameIndex(capacity: memberCount)
            for (index, type) in contents.types.enumerated() {
                for (position, field) in type.fields.enumerated() {
                    fields.insert(owner: index, name: field.name, value: position)
                }
                for (position, field) in type.inputFields.enumerated() {
                    members.insert(owner: index, name: field.name, value: position)
                }
                for (position, value) in type.enumValues.enumerated() {
                    members.insert(owner: index, name: value.name, value: position)
                }
            }
            self.fields = fields
            self.members = members
            var typeNames = NameIndex(capacity: contents.typeIndexByName.count)
            for (name, index) in contents.typeIndexByName { typeNames.insert(owner: -1, name: name, value: index) }
            self.typeNames = typeNames
            var directiveNames = NameIndex(capacity: contents.directiveIndexByName.count)
            for (name, index) in contents.directiveIndexByName {
                directiveNames.insert(owner: -1, name: name, value: index)
            }
            self.directiveNames = directiveNames
        }
    }

    let storage: Storage

    init(_ contents: Contents) {
        storage = Storage(contents)
    }

    /// Every named type, indexed by ``TypeRef/namedIndex``.
    public var types: [NamedType] { storage.contents.types }
    /// Every directive the schema knows, the built-in ones included.
    public var directives: [Directive] { storage.contents.directives }
    /// The schema's description, if any.
    public var description: String? { storage.contents.description }

    var typeIndexByName: [String: Int] { storage.contents.typeIndexByName }
    var directiveIndexByName: [String: Int] { storage.contents.directiveIndexByName }
    var queryTypeIndex: Int { storage.contents.queryTypeIndex }
    var mutationTypeIndex: Int { storage.contents.mutationTypeIndex }
    var subscriptionTypeIndex: Int { storage.contents.subscriptionTypeIndex }
    var metaFields: [Field] { storage.contents.metaFields }

    /// The kind of the type at `index`.
    @inline(__always)
    func kind(_ index: Int) -> TypeKind { storage.kinds[index] }

    /// The indices of the built-in scalars, fixed for every schema.
    static let stringIndex = 0
    static let booleanIndex = 1
    static let intIndex = 2
    static let floatIndex = 3
    static let idIndex = 4

    /// The type with this name, if the schema has one.
    /// - Parameter name: A type name such as `"Query"` or `"__Type"`.
    /// - Returns: The type, or `nil`.
    public func type(named name: String) -> NamedType? {
        guard let index = storage.contents.typeIndexByName[name] else { return nil }
        return storage.contents.types[index]
    }

    /// The directive with this name (without `@`), if the schema has one.
    /// - Parameter name: A directive name such as `"include"`.
    /// - Returns: The directive, or `nil`.
    public func directive(named name: String) -> Directive? {
        guard let index = directiveIndexByName[name] else { return nil }
        return directives[index]
    }

    /// The root type for an operation kind: `query`, `mutation` or `subscription`.
    /// - Parameter operation: The kind of operation.
    /// - Returns: The root object type, or `nil` when the schema does not support that kind.
    public func rootType(for operation: OperationType) -> NamedType? {
        let index = rootTypeIndex(for: operation)
        return index >= 0 ? types[index] : nil
    }

    /// The query root type.
    public var queryType: NamedType? { rootType(for: .query) }
    /// The mutation root type, if the schema has mutations.
    public var mutationType: NamedType? { rootType(for: .mutation) }
    /// The subscription root type, if the schema has subscriptions.
    public var subscriptionType: NamedType? { rootType(for: .subscription) }

    /// The named types in the order graphql-js keeps in its type map (referenced built-ins included).
    public var typeNames: [String] {
        types.indices.filter { typeIndexByName[types[$0].name] == $0 }.map { types[$0].name }
    }

    func rootTypeIndex(for operation: OperationType) -> Int {
        switch operation {
        case .query: queryTypeIndex
        case .mutation: mutationTypeIndex
        case .subscription: subscriptionTypeIndex
        }
    }

    /// The index of a named type, or `nil` when the schema has no type of that name.
    @inline(__always)
    func typeIndex(named name: String) -> Int? { storage.typeNames.find(owner: -1, name: name) }

    /// The index of a directive, or `nil` when the schema has no directive of that name.
    @inline(__always)
    func directiveIndex(named name: String) -> Int? { storage.directiveNames.find(owner: -1, name: name) }

    /// The index of an input object's field or an enum's value.
    @inline(__always)
    func memberIndex(named name: String, in typeIndex: Int) -> Int? {
        storage.members.find(owner: typeIndex, name: name)
    }

    /// The object types that may appear where `abstractIndex` is expected: a union's members or an
    /// interface's implementations, in declaration order.
    func possibleTypes(of index: Int) -> [Int] {
        switch kind(index) {
        case .union: return storage.contents.types[index].memberIndices
        case .interface: return storage.contents.types[index].implementationIndices
        case .object: return [index]
        default: return []
        }
    }

    /// Whether `subIndex` is a subtype of the abstract type `abstractIndex`: a member of the union,
    /// or an object or interface that implements the interface (graphql-js `isSubType`).
    func isSubType(_ abstractIndex: Int, _ subIndex: Int) -> Bool {
        let subtypes = storage.contents.types[abstractIndex].subtypeIndices
        // `subtypeIndices` is sorted, so a binary search answers in O(log n).
        var low = 0
        var high = subtypes.count
        while low < high {
            let middle = (low + high) / 2
            let value = subtypes[middle]
            if value == subIndex { return true }
            if value < subIndex { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Whether two composite types can ever describe the same object (graphql-js `doTypesOverlap`).
    func doTypesOverlap(_ first: Int, _ second: Int) -> Bool {
        if first == second { return true }
        let firstAbstract = kind(first).isAbstract
        let secondAbstract = kind(second).isAbstract
        if firstAbstract {
            if secondAbstract {
                return possibleTypes(of: first).contains { isSubType(second, $0) }
            }
            return isSubType(first, second)
        }
        if secondAbstract { return isSubType(second, first) }
        return false
    }

    /// The definition of a field of a composite type, meta-fields included (graphql-js `getFieldDef`).
    /// - Returns: A reference to the field, or `nil` when the type has no such field.
    @inline(__always)
    func fieldRef(named name: String, in typeIndex: Int) -> FieldRef? {
        if name.utf8.first == UInt8(ascii: "_"), let meta = metaFieldRef(named: name, in: typeIndex) {
            return meta
        }
        guard let field = storage.fields.find(owner: typeIndex, name: name) else { return nil }
        return FieldRef(typeIndex: typeIndex, fieldIndex: field)
    }

    private func metaFieldRef(named name: String, in typeIndex: Int) -> FieldRef? {
        switch name {
        case "__typename" where kind(typeIndex).isComposite:
            return FieldRef(typeIndex: typeIndex, fieldIndex: FieldRef.typename)
        case "__schema" where typeIndex == queryTypeIndex:
            return FieldRef(typeIndex: typeIndex, fieldIndex: FieldRef.schema)
        case "__type" where typeIndex == queryTypeIndex:
            return FieldRef(typeIndex: typeIndex, fieldIndex: FieldRef.type)
        default:
            return nil
        }
    }

    /// The type of a field of an object or interface type (meta-fields excluded), without copying
    /// the field.
    @inline(__always)
    func fieldType(named name: String, in typeIndex: Int) -> TypeRef? {
        guard let index = storage.fields.find(owner: typeIndex, name: name) else { return nil }
        return storage.contents.types[typeIndex].fields[index].type
    }

    /// The type of the field a reference points at.
    @inline(__always)
    func fieldType(_ ref: FieldRef) -> TypeRef {
        ref.fieldIndex >= 0
            ? storage.contents.types[ref.typeIndex].fields[ref.fieldIndex].type
            : storage.contents.metaFields[-1 - ref.fieldIndex].type
    }

    /// The arguments of the field a reference points at.
    @inline(__always)
    func fieldArguments(_ ref: FieldRef) -> [InputValue] {
        ref.fieldIndex >= 0
            ? storage.contents.types[ref.typeIndex].fields[ref.fieldIndex].arguments
            : storage.contents.metaFields[-1 - ref.fieldIndex].arguments
    }

    /// The field a reference points at.
    @inline(__always)
    func field(_ ref: FieldRef) -> Field {
        ref.fieldIndex >= 0
            ? storage.contents.types[ref.typeIndex].fields[ref.fieldIndex]
            : storage.contents.metaFields[-1 - ref.fieldIndex]
    }
}

/// A field of a particular type: an index into ``Schema/types`` and into that type's fields, or one
/// of the meta-fields, which have negative field indices.
struct FieldRef: Hashable, Sendable {
    var typeIndex: Int
    var fieldIndex: Int

    static let typename = -1
    static let schema = -2
    static let type = -3

    var isMeta: Bool { fieldIndex < 0 }
}
