extension Schema {
    /// The six kinds of named type.
    public enum TypeKind: UInt8, Sendable, Hashable, CaseIterable {
        /// A scalar such as `Int` or a custom `DateTime`.
        case scalar
        /// An object type with fields.
        case object
        /// An interface that object types (and other interfaces) implement.
        case interface
        /// A union of object types.
        case union
        /// An enum with a fixed set of values.
        case `enum`
        /// An input object, used for arguments.
        case inputObject

        /// Object, interface or union: a type that has a selection set.
        @inline(__always)
        public var isComposite: Bool { self == .object || self == .interface || self == .union }
        /// Interface or union.
        @inline(__always)
        public var isAbstract: Bool { self == .interface || self == .union }
        /// Scalar or enum: a type whose fields cannot be selected.
        @inline(__always)
        public var isLeaf: Bool { self == .scalar || self == .enum }
        /// Scalar, enum or input object: a type allowed for arguments and variables.
        @inline(__always)
        public var isInput: Bool { self == .scalar || self == .enum || self == .inputObject }
        /// Anything but an input object: a type allowed for fields.
        @inline(__always)
        public var isOutput: Bool { self != .inputObject }

        /// The kind as introspection names it, for example `INPUT_OBJECT`.
        public var introspectionName: String {
            switch self {
            case .scalar: "SCALAR"
            case .object: "OBJECT"
            case .interface: "INTERFACE"
            case .union: "UNION"
            case .enum: "ENUM"
            case .inputObject: "INPUT_OBJECT"
            }
        }
    }

    /// A named type of the schema, with its fields, values or members depending on its kind.
    public struct NamedType: Sendable {
        /// The type's name.
        public let name: String
        /// What kind of type it is.
        public let kind: TypeKind
        /// The description, if any.
        public internal(set) var description: String?
        /// The fields of an object or interface type, in declaration order.
        public internal(set) var fields: [Field] = []
        /// The values of an enum type, in declaration order.
        public internal(set) var enumValues: [EnumValue] = []
        /// The fields of an input object type, in declaration order.
        public internal(set) var inputFields: [InputValue] = []
        /// The `@specifiedBy(url:)` of a scalar, if any.
        public internal(set) var specifiedByURL: String?
        /// Whether an input object is marked `@oneOf`.
        public internal(set) var isOneOf = false

        /// Interfaces an object or interface implements, as indices into ``Schema/types``.
        var interfaceIndices: [Int] = []
        /// A union's member types in declaration order.
        var memberIndices: [Int] = []
        /// The object types implementing an interface, in type order.
        var implementationIndices: [Int] = []
        /// For abstract types: every type that is a subtype (union members; objects and interfaces
        /// implementing an interface), sorted for binary search.
        var subtypeIndices: [Int] = []
        /// Name → position in `fields`, `enumValues` or `inputFields`, for types with many entries.
        var memberIndexByName: [String: Int] = [:]

        init(name: String, kind: TypeKind, description: String? = nil) {
            self.name = name
            self.kind = kind
            self.description = description
        }

        /// The field with this name (meta-fields excluded).
        public func field(named name: String) -> Field? {
            fieldIndex(named: name).map { fields[$0] }
        }

        /// The enum value with this name.
        public func enumValue(named name: String) -> EnumValue? {
            enumValueIndex(named: name).map { enumValues[$0] }
        }

        /// The input field with this name.
        public func inputField(named name: String) -> InputValue? {
            inputFieldIndex(named: name).map { inputFields[$0] }
        }

        /// Below this many members a linear scan beats hashing the name.
        static let linearScanLimit = 8

        @inline(__always)
        func fieldIndex(named name: String) -> Int? {
            if fields.count <= Self.linearScanLimit { return fields.firstIndex { $0.name == name } }
            return memberIndexByName[name]
        }

        @inline(__always)
        func enumValueIndex(named name: String) -> Int? {
            if enumValues.count <= Self.linearScanLimit { return enumValues.firstIndex { $0.name == name } }
            return memberIndexByName[name]
        }

        @inline(__always)
        func inputFieldIndex(named name: String) -> Int? {
            if inputFields.count <= Self.linearScanLimit { return inputFields.firstIndex { $0.name == name } }
            return memberIndexByName[name]
        }

        /// Fills `memberIndexByName` from the entries of the type's kind.
        mutating func indexMembers() {
            memberIndexByName = [:]
            let names: [String]
            switch kind {
            case .object, .interface: names = fields.map(\.name)
            case .enum: names = enumValues.map(\.name)
            case .inputObject: names = inputFields.map(\.name)
            case .scalar, .union: names = []
            }
            guard names.count > Self.linearScanLimit else { return }
            memberIndexByName.reserveCapacity(names.count)
            for (index, name) in names.enumerated() where memberIndexByName[name] == nil {
                memberIndexByName[name] = index
            }
        }
    }

    /// A field of an object or interface type.
    public struct Field: Sendable {
        /// The field's name.
        public let name: String
        /// The description, if any.
        public internal(set) var description: String?
        /// The arguments, in declaration order.
        public internal(set) var arguments: [InputValue]
        /// The type of the field's value.
        public internal(set) var type: TypeRef
        /// The reason given by `@deprecated`, or `nil` when the field is not deprecated.
        public internal(set) var deprecationReason: String?

        /// Whether the field is deprecated.
        public var isDeprecated: Bool { deprecationReason != nil }

        /// The argument with this name.
        public func argument(named name: String) -> InputValue? {
            arguments.first { $0.name == name }
        }
    }

    /// An argument, or a field of an input object type.
    public struct InputValue: Sendable {
        /// The name.
        public let name: String
        /// The description, if any.
        public internal(set) var description: String?
        /// The type the value must have.
        public internal(set) var type: TypeRef
        /// The default value, as written in SDL or given by introspection, if any.
        public internal(set) var defaultValue: Value?
        /// The reason given by `@deprecated`, or `nil`.
        public internal(set) var deprecationReason: String?

        /// Whether the value is deprecated.
        public var isDeprecated: Bool { deprecationReason != nil }

        /// Whether the value must be given: its type is non-null and it has no default.
        public var isRequired: Bool { type.isNonNull && defaultValue == nil }
    }

    /// One value of an enum type.
    public struct EnumValue: Sendable {
        /// The value's name.
        public let name: String
        /// The description, if any.
        public internal(set) var description: String?
        /// The reason given by `@deprecated`, or `nil`.
        public internal(set) var deprecationReason: String?

        /// Whether the value is deprecated.
        public var isDeprecated: Bool { deprecationReason != nil }
    }

    /// A directive the schema declares, or one of the built-ins.
    public struct Directive: Sendable {
        /// The name without `@`.
        public let name: String
        /// The description, if any.
        public internal(set) var description: String?
        /// The arguments, in declaration order.
        public internal(set) var arguments: [InputValue]
        /// Where the directive may be used.
        public internal(set) var locations: [DirectiveLocation]
        /// Whether it may appear more than once at one location.
        public internal(set) var isRepeatable: Bool

        /// The locations as a bit set indexed by `DirectiveLocation.allCases` position.
        var locationMask: UInt32 = 0

        init(
            name: String, description: String? = nil, arguments: [InputValue], locations: [DirectiveLocation],
            isRepeatable: Bool
        ) {
            self.name = name
            self.description = description
            self.arguments = arguments
            self.locations = locations
            self.isRepeatable = isRepeatable
            for location in locations { locationMask |= location.bit }
        }

        /// Whether the directive may be used at `location`.
        @inline(__always)
        public func allows(_ location: DirectiveLocation) -> Bool { locationMask & location.bit != 0 }
    }
}

extension DirectiveLocation {
    /// The location's bit in ``Schema/Directive``'s location set.
    var bit: UInt32 {
        switch self {
        case .query: 1 << 0
        case .mutation: 1 << 1
        case .subscription: 1 << 2
        case .field: 1 << 3
        case .fragmentDefinition: 1 << 4
        case .fragmentSpread: 1 << 5
        case .inlineFragment: 1 << 6
        case .variableDefinition: 1 << 7
        case .schema: 1 << 8
        case .scalar: 1 << 9
        case .object: 1 << 10
        case .fieldDefinition: 1 << 11
        case .argumentDefinition: 1 << 12
        case .interface: 1 << 13
        case .union: 1 << 14
        case .enum: 1 << 15
        case .enumValue: 1 << 16
        case .inputObject: 1 << 17
        case .inputFieldDefinition: 1 << 18
        }
    }
}
