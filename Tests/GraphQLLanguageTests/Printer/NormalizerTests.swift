import GatewayTestSupport
import GraphQLLanguage
import Testing

/// The normalizer's rules, each on a small document.
@Suite(.offPool) struct NormalizerTests {
    private func normalized(_ text: String, operation: String? = nil) throws -> String {
        try Normalizer.normalize(try Parser.parse(text), operationName: operation).text
    }

    @Test func outputIsCompactWithSpacesOnlyBetweenTokensThatWouldMerge() throws {
        let text = """
            # a comment
            query Q($b: Int = 1, $a: [String!]! = ["x", "y"]) @live {
              alias: field(b: 2, a: -1) @include(if: $b) { id, name }
              ... on User { id }
              ...F
              list(values: [1 2 3 A B], s: ["a" "b"], f: 1.5e3, n: null, t: true)
            }
            fragment F on T { id }
            """
        #expect(
            try normalized(text)
                == #"query Q($a:[String!]!=["x" "y"]$b:Int=1)@live{alias:field(a:-1 b:2)@include(if:$b){id name}"#
                + #"...on User{id}...F list(f:1.5e3 n:null s:["a" "b"]t:true values:[1 2 3 A B])}fragment F on T{id}"#)
    }

    @Test func theShorthandAndAnAnonymousQueryKeywordNormalizeAlike() throws {
        #expect(try normalized("{ a }") == "{a}")
        #expect(try normalized("query { a }") == "{a}")
        #expect(try normalized("query ($v: Int) { a(x: $v) }") == "query($v:Int){a(x:$v)}")
        #expect(try normalized("mutation { a }") == "mutation{a}")
        #expect(try normalized("subscription S { a }") == "subscription S{a}")
    }

    @Test func inputObjectFieldsAreSortedAtEveryLevel() throws {
        #expect(
            try normalized("{ f(o: {z: 1, a: {y: [{d: 1, c: 2}], b: $v}}) }")
                == "{f(o:{a:{b:$v y:[{c:2 d:1}]}z:1})}")
    }

    @Test func directivesAndSelectionsKeepTheirWrittenOrder() throws {
        #expect(try normalized("{ b @z @a(y: 1, x: 2) a }") == "{b@z@a(x:2 y:1)a}")
    }

    @Test func blockStringsBecomeQuotedStrings() throws {
        #expect(try normalized("{ f(a: \"\"\"\n    line one\n      \"quoted\"\n\"\"\") }") == #"{f(a:"line one\n  \"quoted\"")}"#)
        #expect(try normalized(#"{ f(a: "", b: "") }"#) == #"{f(a:""b:"")}"#)
        #expect(try normalized(#"{ f(a: ["", ""]) }"#) == #"{f(a:["" ""])}"#)
    }

    @Test func onlyTheSelectedOperationAndTheFragmentsItUsesRemainSortedByName() throws {
        let text = """
            query A { ...Z }
            query B { ...Y x }
            fragment Unused on T { u }
            fragment Z on T { ...X z }
            fragment X on T { x ...Z }
            fragment Y on T { y }
            """
        let first = try Normalizer.normalize(try Parser.parse(text), operationName: "A")
        #expect(first.text == "query A{...Z}fragment X on T{x...Z}fragment Z on T{...X z}")
        #expect(first.fragmentNames == ["X", "Z"])
        #expect(first.selection.fragments.map(\.name.value) == ["Z", "X"])
        #expect(first.operationName == "A")
        #expect(first.operationType == .query)
        #expect(
            first.prettyText
                == "query A {\n  ...Z\n}\n\nfragment Z on T {\n  ...X\n  z\n}\n\nfragment X on T {\n  x\n  ...Z\n}")
        #expect(try normalized(text, operation: "B") == "query B{...Y x}fragment Y on T{y}")
    }

    @Test func aFragmentThatSpreadsItselfIsWrittenOnce() throws {
        let result = try Normalizer.normalize(try Parser.parse("{ ...A } fragment A on T { a ...A ... on T { ...A } }"))
        #expect(result.text == "{...A}fragment A on T{a...A...on T{...A}}")
        #expect(result.fragmentNames == ["A"])
    }

    @Test func anOperationSelectionPrintsPrettyWithOnlyItsFragments() throws {
        let document = try Parser.parse("""
            fragment B on T { b }
            query One { ...A }
            fragment A on T { a ...B }
            query Two { ...C }
            fragment C on T { c }
            """)
        let selection = try OperationSelection(document: document, operationName: "One")
        #expect(selection.fragments.map(\.name.value) == ["B", "A"])
        #expect(selection.fragmentNames == ["A", "B"])
        #expect(
            Printer.print(selection)
                == "query One {\n  ...A\n}\n\nfragment B on T {\n  b\n}\n\nfragment A on T {\n  a\n  ...B\n}")
        #expect(try Normalizer.normalizedText(of: selection) == "query One{...A}fragment A on T{a...B}fragment B on T{b}")
        #expect(throws: OperationSelectionError.operationNameRequired(available: ["One", "Two"])) {
            try OperationSelection(document: document)
        }
        #expect(throws: OperationSelectionError.unknownFragment("Z", usedBy: nil)) {
            try OperationSelection(document: try Parser.parse("{ ...Z }"))
        }
    }

    @Test func variableDefinitionsAreExposedAsWritten() throws {
        let result = try Normalizer.normalize(try Parser.parse("query Q($b: Int = 2, $a: ID!) { f(a: $a, b: $b) }"))
        #expect(result.variableDefinitions.map(\.variable.name.value) == ["b", "a"])
        #expect(result.text == "query Q($a:ID!$b:Int=2){f(a:$a b:$b)}")
    }

    @Test func selectionErrorsSayWhatIsWrong() throws {
        let two = try Parser.parse("query A { a } query B { b }")
        #expect(throws: OperationSelectionError.operationNameRequired(available: ["A", "B"])) {
            try Normalizer.normalize(two)
        }
        #expect(throws: OperationSelectionError.unknownOperation("C", available: ["A", "B"])) {
            try Normalizer.normalize(two, operationName: "C")
        }
        #expect(throws: OperationSelectionError.noOperation) {
            try Normalizer.normalize(try Parser.parse("fragment F on T { a }"))
        }
        #expect(throws: OperationSelectionError.duplicateOperation("A")) {
            try Normalizer.normalize(try Parser.parse("query A { a } query A { b }"), operationName: "A")
        }
        #expect(throws: OperationSelectionError.unknownFragment("G", usedBy: "F")) {
            try Normalizer.normalize(try Parser.parse("{ ...F } fragment F on T { ...G }"))
        }
        #expect(throws: OperationSelectionError.duplicateFragment("F")) {
            try Normalizer.normalize(try Parser.parse("{ ...F } fragment F on T { a } fragment F on T { b }"))
        }
        let message = OperationSelectionError.operationNameRequired(available: ["A", nil]).description
        #expect(message.contains("\"A\"") && message.contains("anonymous"))
    }

    @Test func manyFragmentsAndLongArgumentListsAreHandled() throws {
        let fragments = (0..<40).map { "fragment F\($0) on T { a\($0) ...F\(($0 + 1) % 40) }" }.joined(separator: "\n")
        let arguments = (0..<40).reversed().map { "a\($0): \($0)" }.joined(separator: ", ")
        let document = try Parser.parse("{ f(\(arguments)) ...F0 }\n" + fragments)
        let result = try Normalizer.normalize(document)
        #expect(result.fragmentNames.count == 40)
        #expect(try OperationSelection(document: document).fragments.map(\.name.value) == (0..<40).map { "F\($0)" })
        #expect(result.fragmentNames == (0..<40).map { "F\($0)" }.sorted())
        let sortedArguments = (0..<40).map { "a\($0)" }.sorted().map { "\($0):\($0.dropFirst())" }.joined(separator: " ")
        #expect(result.text.hasPrefix("{f(\(sortedArguments))...F0}fragment F0 on T{a0...F1}fragment F1 on T{a1...F2}"))
    }

    @Test func nestingFarBeyondTheParserLimitNormalizesWithoutRecursion() throws {
        var value = Value.object(ObjectValue([]))
        var selections = SelectionSet(selections: [.field(Field(name: Name("leaf")))])
        for _ in 0..<1_000 {
            value = .object(ObjectValue([ObjectField(name: Name("b"), value: value), ObjectField(name: Name("a"), value: .null(NullValue()))]))
            selections = SelectionSet(selections: [.inlineFragment(InlineFragment(selectionSet: selections))])
        }
        let field = Field(name: Name("f"), arguments: [Argument(name: Name("o"), value: value)])
        let document = Document(definitions: [.operation(OperationDefinition(
            operation: .query, selectionSet: SelectionSet(selections: selections.selections + [.field(field)])))])
        let text = try Normalizer.normalize(document).text
        #expect(text.hasPrefix("{" + String(repeating: "...{", count: 1_000) + "leaf"))
        #expect(text.hasSuffix("f(o:" + String(repeating: "{a:null b:", count: 1_000) + "{}" + String(repeating: "}", count: 1_000) + ")}"))
    }
}
