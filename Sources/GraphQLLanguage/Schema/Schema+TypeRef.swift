extension Schema {
    /// A type as a field, argument or variable uses it: a named type wrapped in lists and non-null
    /// markers, such as `[String!]!`, packed into two integers so that comparing and unwrapping
    /// types never allocates.
    ///
    /// Level 0 is the outermost wrapper and level ``listDepth`` the named type itself; bit *i* of the
    /// non-null mask says whether level *i* is non-null. Up to ``maximumListDepth`` list levels fit.
    public struct TypeRef: Hashable, Sendable {
        /// The named type's index in ``Schema/types``.
        public var namedIndex: Int { Int(named) }
        /// How many list wrappers surround the named type.
        public var listDepth: Int { Int(depth) }

        let named: Int32
        let depth: UInt8
        let nonNullMask: UInt64

        /// The most list levels a type reference can hold.
        public static let maximumListDepth = 63

        init(named: Int, listDepth: Int = 0, nonNullMask: UInt64 = 0) {
            self.named = Int32(truncatingIfNeeded: named)
            self.depth = UInt8(truncatingIfNeeded: listDepth)
            let used: UInt64 = listDepth >= 63 ? .max : (1 << UInt64(listDepth + 1)) - 1
            self.nonNullMask = nonNullMask & used
        }

        /// The named type with no wrappers.
        static func named(_ index: Int) -> TypeRef { TypeRef(named: index) }

        /// Whether the outermost level is non-null.
        @inline(__always)
        public var isNonNull: Bool { nonNullMask & 1 != 0 }

        /// Whether the type, once a non-null marker is removed, is a list.
        @inline(__always)
        public var isList: Bool { depth > 0 }

        /// The same type without its outermost non-null marker.
        @inline(__always)
        public var nullable: TypeRef {
            TypeRef(named: Int(named), listDepth: Int(depth), nonNullMask: nonNullMask & ~1)
        }

        /// The same type with a non-null marker outside.
        @inline(__always)
        public var nonNull: TypeRef {
            TypeRef(named: Int(named), listDepth: Int(depth), nonNullMask: nonNullMask | 1)
        }

        /// The item type of a list (its non-null marker ignored), or `nil` for a named type.
        @inline(__always)
        public var listItem: TypeRef? {
            guard depth > 0 else { return nil }
            return TypeRef(named: Int(named), listDepth: Int(depth) - 1, nonNullMask: nonNullMask >> 1)
        }

        /// The same type wrapped in a list.
        /// - Returns: `nil` when the result would be deeper than ``maximumListDepth``.
        public var inList: TypeRef? {
            guard Int(depth) < Self.maximumListDepth else { return nil }
            return TypeRef(named: Int(named), listDepth: Int(depth) + 1, nonNullMask: nonNullMask << 1)
        }
    }

    /// Resolves a type written in a document against the schema (graphql-js `typeFromAST`).
    /// - Parameter reference: The type as written, such as `[ID!]`.
    /// - Returns: The type, or `nil` when its named type is unknown or it is nested too deeply.
    public func typeRef(_ reference: TypeReference) -> TypeRef? {
        var mask: UInt64 = 0
        var level = 0
        var current = reference
        while true {
            switch current {
            case .nonNull(let node):
                mask |= 1 << UInt64(level)
                current = node.type
            case .list(let node):
                level += 1
                if level > TypeRef.maximumListDepth { return nil }
                current = node.type
            case .named(let node):
                guard let index = typeIndex(named: node.name.value) else { return nil }
                return TypeRef(named: index, listDepth: level, nonNullMask: mask)
            }
        }
    }

    /// The type as graphql-js prints it, for example `[String!]!`.
    public func name(of type: TypeRef) -> String {
        var text = types[type.namedIndex].name
        if type.nonNullMask >> UInt64(type.listDepth) & 1 != 0 { text += "!" }
        var level = type.listDepth - 1
        while level >= 0 {
            text = "[" + text + "]"
            if type.nonNullMask >> UInt64(level) & 1 != 0 { text += "!" }
            level -= 1
        }
        return text
    }

    /// The named type at the core of a type reference.
    public func namedType(of type: TypeRef) -> NamedType { types[type.namedIndex] }

    /// Whether `maybeSubType` can be used where `superType` is expected (graphql-js `isTypeSubTypeOf`).
    func isTypeSubType(_ maybeSubType: TypeRef, of superType: TypeRef) -> Bool {
        var sub = maybeSubType
        var sup = superType
        while true {
            if sub == sup { return true }
            if sup.isNonNull {
                guard sub.isNonNull else { return false }
                sub = sub.nullable
                sup = sup.nullable
                continue
            }
            if sub.isNonNull {
                sub = sub.nullable
                continue
            }
            if sup.isList {
                guard let subItem = sub.listItem, let superItem = sup.listItem else { return false }
                sub = subItem
                sup = superItem
                continue
            }
            if sub.isList { return false }
            return kind(sup.namedIndex).isAbstract && kind(sub.namedIndex).isComposite
                && isSubType(sup.namedIndex, sub.namedIndex)
        }
    }
}
