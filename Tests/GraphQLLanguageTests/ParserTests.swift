import GraphQLLanguage
import Testing

/// The parser builds the right tree: every part of the executable grammar, values decoded, and
/// ranges that cover exactly the node's text.
@Suite struct ParserTests {
    @Test func operationKeepsNameVariablesDirectivesAndSelections() throws {
        let document = try Parser.parse(
            #"query Q($id: ID! = "x", $list: [[Int!]] = [[1], []] @var) @op(a: 1) { hero { name } }"#
        )
        let operation = try #require(document.operations.first)
        #expect(operation.operation == .query)
        #expect(operation.name?.value == "Q")
        #expect(operation.variableDefinitions.map(\.variable.name.value) == ["id", "list"])
        #expect(operation.variableDefinitions[0].type.description == "ID!")
        #expect(operation.variableDefinitions[1].type.description == "[[Int!]]")
        #expect(operation.variableDefinitions[1].directives.map(\.name.value) == ["var"])
        guard case .string(let defaultValue) = operation.variableDefinitions[0].defaultValue else {
            Issue.record("default value is not a string")
            return
        }
        #expect(defaultValue.value == "x" && !defaultValue.block)
        #expect(operation.directives.map(\.name.value) == ["op"])
        #expect(!operation.isShorthand)
        let hero = try #require(operation.selectionSet.fields.first)
        #expect(hero.name.value == "hero" && hero.alias == nil)
        #expect(hero.selectionSet?.fields.map(\.name.value) == ["name"])
    }

    @Test func shorthandMutationAndSubscriptionOperations() throws {
        let document = try Parser.parse("{ a } mutation M { b } subscription { c }")
        #expect(document.operations.map(\.operation) == [.query, .mutation, .subscription])
        #expect(document.operations[0].isShorthand)
        #expect(document.operations.map(\.name?.value) == [nil, "M", nil])
    }

    @Test func fieldsKeepAliasesArgumentsAndDirectivesInOrder() throws {
        let field = try Self.firstField("{ alias: name(b: 2, a: 1) @skip(if: true) @include(if: false) }")
        #expect(field.alias?.value == "alias")
        #expect(field.name.value == "name")
        #expect(field.responseKey == "alias")
        #expect(field.arguments.map(\.name.value) == ["b", "a"])
        #expect(field.directives.map(\.name.value) == ["skip", "include"])
        #expect(field.selectionSet == nil)
    }

    @Test func fragmentsSpreadsAndInlineFragments() throws {
        let document = try Parser.parse(
            "{ ...Frag @d ... on User { id } ... @include(if: true) { name } ... { x } } "
                + "fragment Frag on User @f { id }"
        )
        let selections = try #require(document.operations.first?.selectionSet.selections)
        guard selections.count == 4,
            case .fragmentSpread(let spread) = selections[0],
            case .inlineFragment(let typed) = selections[1],
            case .inlineFragment(let directed) = selections[2],
            case .inlineFragment(let bare) = selections[3]
        else {
            Issue.record("unexpected selections \(selections)")
            return
        }
        #expect(spread.name.value == "Frag" && spread.directives.map(\.name.value) == ["d"])
        #expect(typed.typeCondition?.name.value == "User" && typed.directives.isEmpty)
        #expect(directed.typeCondition == nil && directed.directives.map(\.name.value) == ["include"])
        #expect(
            bare.typeCondition == nil && bare.directives.isEmpty && bare.selectionSet.fields.map(\.name.value) == ["x"])
        guard case .fragment(let fragment) = document.definitions.last else {
            Issue.record("no fragment definition")
            return
        }
        #expect(fragment.name.value == "Frag" && fragment.typeCondition.name.value == "User")
        #expect(fragment.directives.map(\.name.value) == ["f"])
    }

    @Test func valuesOfEveryKind() throws {
        let field = try Self.firstField(
            #"{ f(i: -12, f: 1.5e-3, s: "a\n\u00e9\u{1F600}\uD83D\uDE00", t: true, n: null, e: ENUM, "#
                + #"v: $v, l: [1, [2]], o: {a: {b: 1}}) }"#
        )
        let values = Dictionary(uniqueKeysWithValues: field.arguments.map { ($0.name.value, $0.value) })
        guard case .int(let int) = values["i"], case .float(let float) = values["f"],
            case .string(let string) = values["s"], case .boolean(let boolean) = values["t"],
            case .null = values["n"], case .enum(let enumValue) = values["e"],
            case .variable(let variable) = values["v"], case .list(let list) = values["l"],
            case .object(let object) = values["o"]
        else {
            Issue.record("unexpected values \(values)")
            return
        }
        #expect(int.value == "-12")
        #expect(float.value == "1.5e-3")
        #expect(string.value == "a\né\u{1F600}\u{1F600}")
        #expect(boolean.value)
        #expect(enumValue.value == "ENUM")
        #expect(variable.name.value == "v")
        #expect(list.values.count == 2)
        guard case .list(let inner) = list.values[1], case .int(let two) = inner.values.first else {
            Issue.record("unexpected list \(list)")
            return
        }
        #expect(two.value == "2")
        #expect(object.fields.map(\.name.value) == ["a"])
    }

    @Test(arguments: [
        (
            "\"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\"",
            "Hello,\n  World!\n\nYours,\n  GraphQL."
        ),
        ("\"\"\"  first line kept  \"\"\"", "  first line kept  "),
        ("\"\"\"\n\n   \n\"\"\"", ""),
        ("\"\"\"a \\\"\"\" b\"\"\"", "a \"\"\" b"),
        ("\"\"\"\r\n  one\r\n    two\r  three\r\n\"\"\"", "one\n  two\nthree"),
        ("\"\"\"\tx\n\t\ty\"\"\"", "\tx\ny"),
        ("\"\"\"\\n is not an escape\"\"\"", "\\n is not an escape"),
    ])
    func blockStringsFollowTheSpecsIndentationRules(_ literal: String, _ expected: String) throws {
        let field = try Self.firstField("{ f(s: \(literal)) }")
        guard case .string(let string) = field.arguments.first?.value else {
            Issue.record("not a string")
            return
        }
        #expect(string.block)
        #expect(string.value == expected)
    }

    @Test func rangesCoverExactlyTheNodesText() throws {
        let text = "query Q { alias: field(arg: [1, 2]) @dir { sub } }"
        let document = try Parser.parse(text)
        let source = try #require(document.source)
        let field = try Self.firstField(text)
        #expect(source.text(in: field.range) == "alias: field(arg: [1, 2]) @dir { sub }")
        #expect(source.text(in: field.arguments[0].range) == "arg: [1, 2]")
        #expect(source.text(in: field.arguments[0].value.range) == "[1, 2]")
        #expect(source.text(in: field.directives[0].range) == "@dir")
        #expect(source.text(in: try #require(field.selectionSet).range) == "{ sub }")
        #expect(source.text(in: try #require(document.operations.first).range) == text)
        #expect(document.range == SourceRange(start: 0, end: text.utf8.count))
    }

    @Test func commasAndCommentsAreIgnored() throws {
        let document = try Parser.parse("# leading\n{ a,, b # trailing\n ,c }")
        #expect(document.operations.first?.selectionSet.fields.map(\.name.value) == ["a", "b", "c"])
    }

    @Test func byteOrderMarkIsIgnoredAnywhere() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{ a".utf8) + [0xEF, 0xBB, 0xBF] + Array(" b }".utf8)
        let document = try Parser.parse(Source(bytes: bytes))
        #expect(document.operations.first?.selectionSet.fields.map(\.name.value) == ["a", "b"])
    }

    @Test(arguments: 1...20)
    func namesOfEveryLengthAreOrdinaryStrings(_ length: Int) throws {
        let name = String(String("abcdefghijklmnopqrstuvwxyz".prefix(length)).reversed())
        // Names are read a word at a time when 16 bytes follow their start, byte by byte near the end.
        let padding = String(repeating: " ", count: 20)
        for text in ["{ \(name)\(padding)}", "{ other(a: \(name)) }", "{ other \(name) }"] {
            let fields = try #require(try Parser.parse(text).operations.first?.selectionSet.fields)
            let values = fields.flatMap { field in
                [field.name.value]
                    + field.arguments.compactMap { argument in
                        if case .enum(let value) = argument.value { return value.value }
                        return nil
                    }
            }
            let parsed = try #require(values.first { $0 != "other" })
            #expect(parsed == name)
            #expect(parsed.hashValue == name.hashValue)
            #expect(parsed.utf8.count == length && parsed.count == length)
            #expect(parsed + "!" == name + "!")
            #expect(Array(parsed.utf8) == Array(name.utf8))
        }
    }

    @Test func documentInitializerParsesText() throws {
        let document = try Document(parsing: "{ a }", name: "inline.graphql")
        #expect(document.source?.name == "inline.graphql")
        #expect(document.definitions.count == 1)
    }

    private static func firstField(_ text: String) throws -> Field {
        let document = try Parser.parse(text)
        return try #require(document.operations.first?.selectionSet.fields.first)
    }
}

extension Document {
    /// The operations, in order.
    var operations: [OperationDefinition] {
        definitions.compactMap { definition in
            if case .operation(let operation) = definition { return operation }
            return nil
        }
    }
}

extension SelectionSet {
    /// The fields among the selections, in order.
    var fields: [Field] {
        selections.compactMap { selection in
            if case .field(let field) = selection { return field }
            return nil
        }
    }
}

extension TypeReference {
    /// The type as written in GraphQL.
    var description: String {
        switch self {
        case .named(let named): named.name.value
        case .list(let list): "[\(list.type.description)]"
        case .nonNull(let nonNull): "\(nonNull.type.description)!"
        }
    }
}
