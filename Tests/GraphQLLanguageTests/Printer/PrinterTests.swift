import GraphQLLanguage
import Testing

/// The printer's layout rules, each against the text graphql-js 16 prints for the same input.
@Suite struct PrinterTests {
    private func printed(_ text: String, limits: Limits = .operations) throws -> String {
        Printer.print(try Parser.parse(text, limits: limits))
    }

    @Test func fieldArgumentsBreakOntoLinesPastEightyCharacters() throws {
        #expect(
            try printed(#"{ someVeryLongFieldNameForTesting(firstArgument: "a fairly long string value", second: 12345) }"#)
                == """
                {
                  someVeryLongFieldNameForTesting(
                    firstArgument: "a fairly long string value"
                    second: 12345
                  )
                }
                """)
    }

    @Test func theEightyCharacterLimitCountsAliasNameAndArgumentsButNotIndentation() throws {
        let eighty = "f(a: \"" + String(repeating: "x", count: 72) + "\")"
        let eightyOne = "f(a: \"" + String(repeating: "x", count: 73) + "\")"
        #expect(eighty.count == 80)
        #expect(try printed("{ a { b { \(eighty) } } }") == "{\n  a {\n    b {\n      \(eighty)\n    }\n  }\n}")
        #expect(
            try printed("{ \(eightyOne) }")
                == "{\n  f(\n    a: \"\(String(repeating: "x", count: 73))\"\n  )\n}")
        #expect(
            try printed(#"{ someAlias: field(argumentNumberOne: "value one", argumentNumberTwo: "value twoo") }"#)
                == """
                {
                  someAlias: field(
                    argumentNumberOne: "value one"
                    argumentNumberTwo: "value twoo"
                  )
                }
                """)
    }

    @Test func lineLengthCountsUTF16CodeUnitsAsJavaScriptDoes() throws {
        // 36 emoji are 36 characters but 72 UTF-16 code units: `f(a: "…")` is 80 units long.
        let emoji = String(repeating: "😀", count: 36)
        #expect(try printed(#"{ f(a: "\#(emoji)") }"#) == "{\n  f(a: \"\(emoji)\")\n}")
        let more = emoji + "😀"
        #expect(try printed(#"{ f(a: "\#(more)") }"#) == "{\n  f(\n    a: \"\(more)\"\n  )\n}")
    }

    @Test func blockStringsInArgumentsCarryTheEnclosingIndentation() throws {
        #expect(
            try printed("query { f(a: \"\"\"\n  multi\n  line\n\"\"\", b: 1) { g } }")
                == "{\n  f(a: \"\"\"\n  multi\n  line\n  \"\"\", b: 1) {\n    g\n  }\n}")
    }

    @Test func operationsUseTheShorthandOnlyWhenNothingElseIsWritten() throws {
        #expect(
            try printed(#"query ($a: Int = 1 @d, $b: [String!]! = ["x"]) @op { a }"#)
                == "query ($a: Int = 1 @d, $b: [String!]! = [\"x\"]) @op {\n  a\n}")
        #expect(try printed("mutation { a }") == "mutation {\n  a\n}")
        #expect(try printed("query { a }") == "{\n  a\n}")
        #expect(try printed("query Q { a }") == "query Q {\n  a\n}")
    }

    @Test func valuesPrintAsGraphQLJSDoes() throws {
        #expect(
            try printed(#"{ f(o: {a: 1, b: [1, 2.5e3, "s", ENUM, null, true, false, $v, {}], c: {d: {e: []}}}) }"#)
                == """
                {
                  f(
                    o: {a: 1, b: [1, 2.5e3, "s", ENUM, null, true, false, $v, {}], c: {d: {e: []}}}
                  )
                }
                """)
    }

    @Test func quotedStringsAreEscapedAsPrintStringDoes() throws {
        #expect(
            try printed(#"{ f(s: "q\" b\\ \b\f\n\r\t \u0001 \u007F \u0085 é \u{1F600} \uD83D\uDE00") }"#)
                == #"{"# + "\n" + #"  f(s: "q\" b\\ \b\f\n\r\t \u0001 \u007F \u0085 é 😀 😀")"# + "\n}")
    }

    @Test(arguments: [
        ("", #""""""""#),
        ("simple", #""""simple""""#),
        (" leading space", #"""" leading space""""#),
        ("\tleading tab", "\"\"\"\tleading tab\"\"\""),
        ("trailing quote\"", "\"\"\"\ntrailing quote\"\n\"\"\""),
        ("trailing slash\\", "\"\"\"\ntrailing slash\\\n\"\"\""),
        ("has \"\"\" inside", #""""has \""" inside""""#),
        ("ends with \"\"\"", "\"\"\"\nends with \\\"\"\"\n\"\"\""),
        ("ends with \"\"\"\"", "\"\"\"\nends with \\\"\"\"\"\n\"\"\""),
        ("four \"\"\"\" quotes", #""""four \"""" quotes""""#),
        ("two\nlines", "\"\"\"\ntwo\nlines\n\"\"\""),
        ("first\n  indented second", "\"\"\"\nfirst\n  indented second\n\"\"\""),
        ("  indented first\n  indented second", "\"\"\"\n  indented first\n  indented second\n\"\"\""),
        (String(repeating: "x", count: 70), "\"\"\"" + String(repeating: "x", count: 70) + "\"\"\""),
        (String(repeating: "x", count: 71), "\"\"\"\n" + String(repeating: "x", count: 71) + "\n\"\"\""),
        (String(repeating: "é", count: 71), "\"\"\"\n" + String(repeating: "é", count: 71) + "\n\"\"\""),
        ("a\n\nb", "\"\"\"\na\n\nb\n\"\"\""),
        (" leading space and trailing quote\"", "\"\"\" leading space and trailing quote\"\n\"\"\""),
    ])
    func blockStringsFollowPrintBlockString(value: String, expected: String) {
        let document = Document(definitions: [
            .type(.scalar(ScalarTypeDefinition(description: StringValue(value, block: true), name: Name("S"))))
        ])
        #expect(Printer.print(document) == expected + "\nscalar S")
    }

    @Test func descriptionsKeepTheirWrittenForm() throws {
        #expect(
            try printed(#""quoted \n description" type E { "f" f: Int }"#, limits: .schemas)
                == "\"quoted \\n description\"\ntype E {\n  \"f\"\n  f: Int\n}")
        #expect(
            try printed("\"\"\"desc\"\"\" schema @d { query: Q mutation: M subscription: S }", limits: .schemas)
                == "\"\"\"desc\"\"\"\nschema @d {\n  query: Q\n  mutation: M\n  subscription: S\n}")
        #expect(
            try printed("type T { \"\"\"\n  a\n    b\n  c\n\"\"\" f: Int }", limits: .schemas)
                == "type T {\n  \"\"\"\n  a\n    b\n  c\n  \"\"\"\n  f: Int\n}")
    }

    @Test func definitionArgumentsGoOnePerLineWhenAnyOfThemSpansLines() throws {
        #expect(
            try printed(#"directive @a(b: Int = 1, "desc" c: String) repeatable on FIELD | QUERY directive @b on FIELD"#)
                == """
                directive @a(
                  b: Int = 1
                  "desc"
                  c: String
                ) repeatable on FIELD | QUERY

                directive @b on FIELD
                """)
        #expect(
            try printed("type T { f(a: Int @d(x: \"\"\"a\nb\"\"\")): Int }")
                == "type T {\n  f(\n    a: Int @d(x: \"\"\"\n    a\n    b\n    \"\"\")\n  ): Int\n}")
        #expect(try printed("type T { f(a: Int, b: [S!]! = [\"x\"] @d): Int }") == "type T {\n  f(a: Int, b: [S!]! = [\"x\"] @d): Int\n}")
    }

    @Test func extensionsAndEmptyTypesPrintWithoutBlocks() throws {
        let text = """
            extend schema @a { query: Q } extend scalar S @d extend type T implements I & J @d { f: Int }
            extend interface I implements J { f: Int } extend union U @d = A | B extend enum E @d { A }
            extend input In @d { a: Int = 1 } type T interface I union U enum E input In
            union V = | A | B
            """
        #expect(
            try printed(text)
                == """
                extend schema @a {
                  query: Q
                }

                extend scalar S @d

                extend type T implements I & J @d {
                  f: Int
                }

                extend interface I implements J {
                  f: Int
                }

                extend union U @d = A | B

                extend enum E @d {
                  A
                }

                extend input In @d {
                  a: Int = 1
                }

                type T

                interface I

                union U

                enum E

                input In

                union V = A | B
                """)
    }

    @Test func fragmentsAndSpreadsKeepTheirDirectives() throws {
        #expect(
            try printed("fragment F on T @a @b(c: 1) { a ...G @x ... on U @y { b } ... @z { c } ... { d } }")
                == """
                fragment F on T @a @b(c: 1) {
                  a
                  ...G @x
                  ... on U @y {
                    b
                  }
                  ... @z {
                    c
                  }
                  ... {
                    d
                  }
                }
                """)
    }

    @Test func emptySelectionSetsBuiltInCodePrintAsGraphQLJSPrintsThem() {
        let empty = SelectionSet(selections: [])
        let field = Field(name: Name("a"), selectionSet: empty)
        let document = Document(definitions: [
            .operation(OperationDefinition(operation: .query, selectionSet: empty)),
            .operation(OperationDefinition(operation: .query, name: Name("Q"), selectionSet: empty)),
            .operation(OperationDefinition(operation: .query, selectionSet: SelectionSet(selections: [.field(field)]))),
            .fragment(FragmentDefinition(name: Name("F"), typeCondition: NamedType(name: Name("T")), selectionSet: empty)),
        ])
        #expect(Printer.print(document) == "query Q \n\n{\n  a\n}\n\nfragment F on T ")
    }

    @Test func valuesAndTypesPrintOnTheirOwn() {
        let type = TypeReference.nonNull(NonNullType(type: .list(ListType(type: .nonNull(NonNullType(
            type: .named(NamedType(name: Name("ID")))))))))
        #expect(Printer.print(type) == "[ID!]!")
        let value = Value.object(ObjectValue([
            ObjectField(name: Name("b"), value: .list(ListValue([.int(IntValue("1")), .string(StringValue("x\n"))]))),
            ObjectField(name: Name("a"), value: .variable(Variable(name: Name("v")))),
        ]))
        #expect(Printer.print(value) == #"{b: [1, "x\n"], a: $v}"#)
    }

    @Test func nestingFarBeyondTheParserLimitPrintsWithoutRecursion() {
        var value = Value.int(IntValue("1"))
        var selections = SelectionSet(selections: [.field(Field(name: Name("leaf")))])
        for _ in 0..<1_000 {
            value = .list(ListValue([value]))
            selections = SelectionSet(selections: [.field(Field(name: Name("a"), selectionSet: selections))])
        }
        let type = TypeReference.named(NamedType(name: Name("T")))
        let wrapped = (0..<1_000).reduce(type) { inner, _ in .list(ListType(type: inner)) }
        #expect(Printer.print(value).utf8.count == 2_001)
        #expect(Printer.print(wrapped).utf8.count == 2_001)
        let text = Printer.print(Document(definitions: [.operation(OperationDefinition(
            operation: .query, selectionSet: selections))]))
        var expected = "{"
        for level in 1...1_000 { expected += "\n" + String(repeating: " ", count: 2 * level) + "a {" }
        expected += "\n" + String(repeating: " ", count: 2_002) + "leaf"
        for level in (0...1_000).reversed() { expected += "\n" + String(repeating: " ", count: 2 * level) + "}" }
        #expect(text == expected)
    }
}
