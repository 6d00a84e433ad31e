import GraphQLLanguage

/// A small, fast, deterministic random number generator (SplitMix64), so every generated document
/// can be rebuilt from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Builds random but parseable documents: executable documents (operations, fragments that spread
/// each other, cycles included) and type-system documents (every definition and extension kind).
///
/// Block strings are only generated for values graphql-js considers printable as block strings, so
/// printing and parsing gives back the same value.
struct DocumentGenerator {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    private static let names = [
        "a", "b", "id", "name", "query", "type", "on", "fragment", "true", "null", "input", "_u", "x1",
        "someVeryLongFieldNameThatMakesArgumentLinesWrap",
    ]
    private static let enumNames = ["A", "RED", "on", "query", "DESKTOP", "_Z"]
    private static let typeNames = ["T", "User", "Query", "String", "Int", "ID", "SomeRatherLongTypeName"]
    private static let stringPieces = [
        "a", "word ", " ", "\t", "\"", "\\", "\n", "é", "😀", "\"\"\"", "  indented", "x\u{1}", "\u{7F}", "\u{85}",
        "long text that goes on for a while ",
    ]
    private static let numbers = ["0", "-12", "123", "1.5", "-0.25e10", "3E-2", "7"]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    mutating func name() -> Name { Name(pick(Self.names)) }
    mutating func typeName() -> Name { Name(pick(Self.typeNames)) }

    // MARK: Executable documents

    /// An executable document: up to three operations (named, or one anonymous) and fragments
    /// `F0`… that spread each other, so cycles occur.
    mutating func executableDocument() -> Document {
        let fragmentCount = count(0...4)
        var definitions: [Definition] = []
        let operationCount = count(1...3)
        for index in 0..<operationCount {
            let anonymous = operationCount == 1 && chance(30)
            definitions.append(.operation(operation(named: anonymous ? nil : "Op\(index)", fragments: fragmentCount)))
        }
        for index in 0..<fragmentCount {
            definitions.append(.fragment(FragmentDefinition(
                name: Name("F\(index)"), typeCondition: NamedType(name: typeName()),
                directives: directives(constant: false), selectionSet: selectionSet(depth: 2, fragments: fragmentCount))))
        }
        definitions.shuffle(using: &random)
        return Document(definitions: definitions)
    }

    mutating func operation(named operationName: String?, fragments: Int) -> OperationDefinition {
        let kind = pick(OperationType.allCases)
        var variables: [VariableDefinition] = []
        var used: Set<String> = []
        for _ in 0..<count(0...3) {
            let variable = name().value
            guard used.insert(variable).inserted else { continue }
            variables.append(VariableDefinition(
                variable: Variable(name: Name(variable)), type: type(depth: 2),
                defaultValue: chance(40) ? value(constant: true, depth: 2) : nil, directives: directives(constant: true)))
        }
        return OperationDefinition(
            operation: kind, name: operationName.map { Name($0) }, variableDefinitions: variables,
            directives: directives(constant: false), selectionSet: selectionSet(depth: 3, fragments: fragments))
    }

    mutating func selectionSet(depth: Int, fragments: Int) -> SelectionSet {
        var selections: [Selection] = []
        for _ in 0..<count(1...4) {
            let roll = count(0...9)
            if roll < 2, fragments > 0 {
                selections.append(.fragmentSpread(FragmentSpread(
                    name: Name("F\(count(0...(fragments - 1)))"), directives: directives(constant: false))))
            } else if roll < 3, depth > 0 {
                selections.append(.inlineFragment(InlineFragment(
                    typeCondition: chance(70) ? NamedType(name: typeName()) : nil, directives: directives(constant: false),
                    selectionSet: selectionSet(depth: depth - 1, fragments: fragments))))
            } else {
                selections.append(.field(Field(
                    alias: chance(20) ? name() : nil, name: name(), arguments: arguments(constant: false),
                    directives: directives(constant: false),
                    selectionSet: depth > 0 && chance(40) ? selectionSet(depth: depth - 1, fragments: fragments) : nil)))
            }
        }
        return SelectionSet(selections: selections)
    }

    /// Up to `maximum` distinct names (repeated names would make argument order meaningful).
    mutating func distinctNames(_ maximum: Int) -> [Name] {
        var seen: Set<String> = []
        return (0..<maximum).compactMap { _ in
            let candidate = name()
            return seen.insert(candidate.value).inserted ? candidate : nil
        }
    }

    mutating func arguments(constant: Bool) -> [Argument] {
        distinctNames(chance(50) ? count(1...4) : 0).map { name in
            Argument(name: name, value: value(constant: constant, depth: 2))
        }
    }

    mutating func directives(constant: Bool) -> [Directive] {
        (0..<(chance(25) ? count(1...2) : 0)).map { _ in
            Directive(name: name(), arguments: arguments(constant: constant))
        }
    }

    mutating func type(depth: Int) -> TypeReference {
        var core = TypeReference.named(NamedType(name: typeName()))
        if depth > 0, chance(30) { core = .list(ListType(type: type(depth: depth - 1))) }
        return chance(40) ? .nonNull(NonNullType(type: core)) : core
    }

    mutating func value(constant: Bool, depth: Int) -> Value {
        switch count(0...10) {
        case 0 where !constant: return .variable(Variable(name: name()))
        case 0, 1:
            let number = pick(Self.numbers)
            return number.contains(where: { ".eE".contains($0) }) ? .float(FloatValue(number)) : .int(IntValue(number))
        case 2, 3: return .string(string())
        case 4: return .boolean(BooleanValue(chance(50)))
        case 5: return .null(NullValue())
        case 6: return .enum(EnumValue(pick(Self.enumNames)))
        case 7...8 where depth > 0:
            return .list(ListValue((0..<count(0...3)).map { _ in value(constant: constant, depth: depth - 1) }))
        case 9...10 where depth > 0:
            return .object(ObjectValue(distinctNames(count(0...3)).map { name in
                ObjectField(name: name, value: value(constant: constant, depth: depth - 1))
            }))
        default: return .int(IntValue(String(count(0...999))))
        }
    }

    /// A string of random pieces; written as a block string only when graphql-js could print it so.
    mutating func string() -> StringValue {
        var text = ""
        for _ in 0..<count(0...6) { text += pick(Self.stringPieces) }
        let printable = Self.isPrintableAsBlockString(text)
        return StringValue(text, block: printable && chance(50))
    }

    /// graphql-js 16's `isPrintableAsBlockString`, plus no C0/C1 control characters.
    static func isPrintableAsBlockString(_ value: String) -> Bool {
        if value.isEmpty { return true }
        var isEmptyLine = true
        var hasIndent = false
        var hasCommonIndent = true
        var seenNonEmptyLine = false
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x0A:
                if isEmptyLine && !seenNonEmptyLine { return false }
                seenNonEmptyLine = true
                isEmptyLine = true
                hasIndent = false
            case 0x09, 0x20:
                hasIndent = hasIndent || isEmptyLine
            case 0x00..<0x20, 0x7F...0x9F:
                return false
            default:
                hasCommonIndent = hasCommonIndent && hasIndent
                isEmptyLine = false
            }
        }
        if isEmptyLine { return false }
        if hasCommonIndent && seenNonEmptyLine { return false }
        return true
    }
}
