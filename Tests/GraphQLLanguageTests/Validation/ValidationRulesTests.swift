import GraphQLLanguage
import Testing

/// Rule by rule, the validator reports what graphql-js reports: each case's expected diagnostics
/// (rule, locations, message) were produced by graphql-core 3.2.8 and turned into graphql-js's
/// words (double quotes, directive locations in capitals).
@Suite struct ValidationRulesTests {
    static let schemaSDL = """
        schema { query: Query mutation: Mutation subscription: Subscription }
        directive @cached(ttl: Int!, scope: String) on FIELD | QUERY
        directive @tag(name: String!) repeatable on FIELD
        scalar DateTime
        enum Color { RED GREEN BLUE }
        input Filter { color: Color, after: DateTime, limit: Int = 10, tags: [String!], nested: Filter }
        input Point { x: Float!, y: Float! }
        input Pick @oneOf { id: ID, name: String }
        interface Node { id: ID! }
        interface Named { name: String }
        type Query {
          node(id: ID!): Node
          pets(filter: Filter, first: Int): [Pet!]!
          search(text: String!, color: Color = RED): [SearchResult]
          at(point: Point): String
          pick(by: Pick!): Pet
          numbers(values: [Int!]!): Int
          flag(on: Boolean): Boolean
        }
        type Mutation { adopt(id: ID!): Pet }
        type Subscription { petAdded: Pet, petRemoved: Pet }
        type Dog implements Node & Named {
          id: ID!, name: String, barks: Boolean, owner: Human, size(unit: String): Int
        }
        type Cat implements Node & Named {
          id: ID!, name: String, meows: Boolean, size(unit: Int): Int, nickname: String!
        }
        type Human implements Node & Named { id: ID!, name: String, pets: [Pet] }
        union Pet = Dog | Cat
        union SearchResult = Dog | Cat | Human
        """

    static let schema: Schema? = (try? Parser.parse(schemaSDL)).flatMap { Schema.build([$0]).schema }

    struct Case: Sendable, CustomTestStringConvertible {
        var query: String
        var expected: [String]
        var testDescription: String { query }
    }

    /// Each expected diagnostic as `rule line:column,... message`.
    static let cases: [Case] = [
        Case(query: "{ pets { ... on Dog { name barks } ... on Cat { name meows } } }", expected: []),
        Case(
            query: "{ pets { name } }",
            expected: [
                #"""
                    FieldsOnCorrectTypeRule 1:10 Cannot query field "name" on type "Pet". Did you mean to use an \#
                    inline fragment on "Named", "Cat", or "Dog"?
                    """#,
            ]
        ),
        Case(query: "{ pets { ... on Dog { size(unit: \"cm\") } ... on Cat { size(unit: 1) } } }", expected: []),
        Case(query: "{ pets { ... on Named { name } ... on Node { id } } }", expected: []),
        Case(query: "query Q($f: Filter) { pets(filter: $f) { __typename } }", expected: []),
        Case(query: "query Q($c: Color) { search(text: \"x\", color: $c) { __typename } }", expected: []),
        Case(
            query: "query Q($t: String) { search(text: $t) { __typename } }",
            expected: [
                #"""
                    VariablesInAllowedPositionRule 1:9,1:36 Variable "$t" of type "String" used in position expecting \#
                    type "String!".
                    """#,
            ]
        ),
        Case(query: "query Q($t: String = \"a\") { search(text: $t) { __typename } }", expected: []),
        Case(
            query: #"""
                { pets(filter: {color: PURPLE, limit: 2.5, tags: ["a", null], nested: {colour: RED}}) { __typename } \#
                }
                """#,
            expected: [
                "ValuesOfCorrectTypeRule 1:24 Value \"PURPLE\" does not exist in \"Color\" enum.",
                "ValuesOfCorrectTypeRule 1:39 Int cannot represent non-integer value: 2.5",
                "ValuesOfCorrectTypeRule 1:56 Expected value of type \"String!\", found null.",
                #"""
                    ValuesOfCorrectTypeRule 1:72 Field "colour" is not defined by type "Filter". Did you mean \#
                    "color"?
                    """#,
            ]
        ),
        Case(
            query: "{ pets(filter: {color: \"RED\"}) { __typename } }",
            expected: [
                #"""
                    ValuesOfCorrectTypeRule 1:24 Enum "Color" cannot represent non-enum value: "RED". Did you mean \#
                    the enum value "RED" or "GREEN"?
                    """#,
            ]
        ),
        Case(
            query: "{ numbers(values: [1, 2147483648, -2147483649]) }",
            expected: [
                "ValuesOfCorrectTypeRule 1:23 Int cannot represent non 32-bit signed integer value: 2147483648",
                "ValuesOfCorrectTypeRule 1:35 Int cannot represent non 32-bit signed integer value: -2147483649",
            ]
        ),
        Case(query: "{ numbers(values: 1) }", expected: []),
        Case(
            query: "{ numbers(values: [[1]]) }",
            expected: [
                "ValuesOfCorrectTypeRule 1:20 Int cannot represent non-integer value: [1]",
            ]
        ),
        Case(
            query: "{ at(point: {x: 1}) }",
            expected: [
                "ValuesOfCorrectTypeRule 1:13 Field \"Point.y\" of required type \"Float!\" was not provided.",
            ]
        ),
        Case(
            query: "{ at(point: {x: 1, y: 2, x: 3}) }",
            expected: [
                "UniqueInputFieldNamesRule 1:14,1:26 There can be only one input field named \"x\".",
            ]
        ),
        Case(
            query: "{ at(point: [1, 2]) }",
            expected: [
                "ValuesOfCorrectTypeRule 1:13 Expected value of type \"Point\", found [1, 2].",
            ]
        ),
        Case(
            query: "{ at(point: \"origin\") }",
            expected: [
                "ValuesOfCorrectTypeRule 1:13 Expected value of type \"Point\", found \"origin\".",
            ]
        ),
        Case(
            query: "{ flag(on: 1) flag2: flag(on: \"\"\"yes\"\"\") }",
            expected: [
                "ValuesOfCorrectTypeRule 1:12 Boolean cannot represent a non boolean value: 1",
                "ValuesOfCorrectTypeRule 1:31 Boolean cannot represent a non boolean value: \"\"\"yes\"\"\"",
            ]
        ),
        Case(
            query: "{ pick(by: {id: 1, name: \"x\"}) { __typename } }",
            expected: [
                "ValuesOfCorrectTypeRule 1:12 OneOf Input Object \"Pick\" must specify exactly one key.",
            ]
        ),
        Case(
            query: "{ pick(by: {id: null}) { __typename } }",
            expected: [
                "ValuesOfCorrectTypeRule 1:12 Field \"Pick.id\" must be non-null.",
            ]
        ),
        Case(
            query: "query Q($id: ID) { pick(by: {id: $id}) { __typename } }",
            expected: [
                #"""
                    ValuesOfCorrectTypeRule 1:29 Variable "id" must be non-nullable to be used for OneOf Input Object \#
                    "Pick".
                    """#,
            ]
        ),
        Case(query: "query Q($id: ID!) { pick(by: {id: $id}) { __typename } }", expected: []),
        Case(
            query: "{ pets { ... on Dog { owner { pets { ... on Human { id } } } } } }",
            expected: [
                #"""
                    PossibleFragmentSpreadsRule 1:38 Fragment cannot be spread here as objects of type "Pet" can \#
                    never be of type "Human".
                    """#,
            ]
        ),
        Case(
            query: "{ node(id: 1) { ... on Dog { name } ... on Human { name } ... on Pet { __typename } } }",
            expected: []
        ),
        Case(query: "{ node(id: 1) { ...F } } fragment F on Human { name }", expected: []),
        Case(
            query: "{ node(id: 1) { ...F } } fragment F on Color { name }",
            expected: [
                "FragmentsOnCompositeTypesRule 1:40 Fragment \"F\" cannot condition on non composite type \"Color\".",
            ]
        ),
        Case(
            query: "{ node(id: 1) { ... on Point { x } } }",
            expected: [
                "FragmentsOnCompositeTypesRule 1:24 Fragment cannot condition on non composite type \"Point\".",
            ]
        ),
        Case(
            query: #"""
                { node(id: 1) @cached(ttl: 1) @cached(ttl: 2) { id @tag(name: "a") @tag(name: "b") @skip(if: true) \#
                @skip(if: false) } }
                """#,
            expected: [
                #"""
                    UniqueDirectivesPerLocationRule 1:15,1:31 The directive "@cached" can only be used once at this \#
                    location.
                    """#,
                #"""
                    UniqueDirectivesPerLocationRule 1:84,1:100 The directive "@skip" can only be used once at this \#
                    location.
                    """#,
            ]
        ),
        Case(
            query: "query @cached(ttl: 1, scop: \"x\", ttl: 2) { flag }",
            expected: [
                #"""
                    KnownArgumentNamesRule 1:23 Unknown argument "scop" on directive "@cached". Did you mean "scope"?
                    """#,
                "UniqueArgumentNamesRule 1:15,1:34 There can be only one argument named \"ttl\".",
            ]
        ),
        Case(
            query: "query @cached { flag @cached }",
            expected: [
                #"""
                    ProvidedRequiredArgumentsRule 1:7 Directive "@cached" argument "ttl" of type "Int!" is required, \#
                    but it was not provided.
                    """#,
                #"""
                    ProvidedRequiredArgumentsRule 1:22 Directive "@cached" argument "ttl" of type "Int!" is required, \#
                    but it was not provided.
                    """#,
            ]
        ),
        Case(
            query: "{ flag @include(if: true, unless: false) }",
            expected: [
                "KnownArgumentNamesRule 1:27 Unknown argument \"unless\" on directive \"@include\".",
            ]
        ),
        Case(
            query: "{ flag @unknown(on: 5) }",
            expected: [
                "KnownDirectivesRule 1:8 Unknown directive \"@unknown\".",
                "ValuesOfCorrectTypeRule 1:21 Boolean cannot represent a non boolean value: 5",
            ]
        ),
        Case(
            query: "{ pets { ... on Dog { size @unknown(unit: 5) } } }",
            expected: [
                "KnownDirectivesRule 1:28 Unknown directive \"@unknown\".",
                "ValuesOfCorrectTypeRule 1:43 String cannot represent a non string value: 5",
            ]
        ),
        Case(
            query: "query ($a: Int, $b: Int) { flag }",
            expected: [
                "NoUnusedVariablesRule 1:8 Variable \"$a\" is never used.",
                "NoUnusedVariablesRule 1:17 Variable \"$b\" is never used.",
            ]
        ),
        Case(
            query: "query ($a: DateTime) { flag } fragment Unused on Query { flag }",
            expected: [
                "NoUnusedFragmentsRule 1:31 Fragment \"Unused\" is never used.",
                "NoUnusedVariablesRule 1:8 Variable \"$a\" is never used.",
            ]
        ),
        Case(
            query: "query A { flag } { flag }",
            expected: [
                "LoneAnonymousOperationRule 1:18 This anonymous operation must be the only defined operation.",
            ]
        ),
        Case(
            query: "subscription S { petAdded { __typename } petRemoved { __typename } }",
            expected: [
                "SingleFieldSubscriptionsRule 1:42 Subscription \"S\" must select only one top level field.",
            ]
        ),
        Case(
            query: "subscription { __typename }",
            expected: [
                #"""
                    SingleFieldSubscriptionsRule 1:16 Anonymous Subscription must not select an introspection top \#
                    level field.
                    """#,
            ]
        ),
        Case(
            query: #"""
                subscription S { ...F } fragment F on Subscription { petAdded { __typename } petRemoved { __typename \#
                } }
                """#,
            expected: [
                "SingleFieldSubscriptionsRule 1:78 Subscription \"S\" must select only one top level field.",
            ]
        ),
        Case(
            query: "subscription S { petAdded { __typename } petRemoved @skip(if: true) { __typename } }",
            expected: []
        ),
        Case(
            query: "mutation M { adopt { id } }",
            expected: [
                #"""
                    FieldsOnCorrectTypeRule 1:22 Cannot query field "id" on type "Pet". Did you mean to use an inline \#
                    fragment on "Node", "Cat", or "Dog"?
                    """#,
                #"""
                    ProvidedRequiredArgumentsRule 1:14 Field "adopt" argument "id" of type "ID!" is required, but it \#
                    was not provided.
                    """#,
            ]
        ),
        Case(query: "{ __schema { queryType { name } } __type(name: \"Dog\") { fields { name } } }", expected: []),
        Case(
            query: "{ pets { __schema { queryType { name } } } }",
            expected: [
                "FieldsOnCorrectTypeRule 1:10 Cannot query field \"__schema\" on type \"Pet\".",
            ]
        ),
        Case(
            query: "{ pets { x: name } }",
            expected: [
                #"""
                    FieldsOnCorrectTypeRule 1:10 Cannot query field "name" on type "Pet". Did you mean to use an \#
                    inline fragment on "Named", "Cat", or "Dog"?
                    """#,
            ]
        ),
        Case(
            query: "{ pets { ... on Dog { x: name x: barks } } }",
            expected: [
                #"""
                    OverlappingFieldsCanBeMergedRule 1:23,1:31 Fields "x" conflict because "name" and "barks" are \#
                    different fields. Use different aliases on the fields to fetch both if this was intentional.
                    """#,
                #"""
                    OverlappingFieldsCanBeMergedRule 1:23,1:31 Fields "x" conflict because "name" and "barks" are \#
                    different fields. Use different aliases on the fields to fetch both if this was intentional.
                    """#,
            ]
        ),
        Case(query: "{ pets { ... on Dog { name: barks } ... on Cat { name: meows } } }", expected: []),
        Case(
            query: "{ node(id: 1) { ... on Dog { n: name } ... on Cat { n: nickname } } }",
            expected: [
                #"""
                    OverlappingFieldsCanBeMergedRule 1:30,1:53 Fields "n" conflict because they return conflicting \#
                    types "String" and "String!". Use different aliases on the fields to fetch both if this was \#
                    intentional.
                    """#,
            ]
        ),
        Case(
            query: "{ pets { ... on Dog { owner { name } } owner: __typename } }",
            expected: [
                #"""
                    OverlappingFieldsCanBeMergedRule 1:23,1:40 Fields "owner" conflict because "owner" and \#
                    "__typename" are different fields. Use different aliases on the fields to fetch both if this was \#
                    intentional.
                    """#,
            ]
        ),
        Case(
            query: "{ node(id: \"1\") { id } node(id: \"2\") { id } }",
            expected: [
                #"""
                    OverlappingFieldsCanBeMergedRule 1:3,1:24 Fields "node" conflict because they have differing \#
                    arguments. Use different aliases on the fields to fetch both if this was intentional.
                    """#,
            ]
        ),
        Case(
            query: #"""
                { node(id: "1") { ... on Dog { owner { id } } } node(id: "1") { ... on Dog { owner { id: name } } } }
                """#,
            expected: [
                #"""
                    OverlappingFieldsCanBeMergedRule 1:3,1:32,1:40,1:49,1:78,1:86 Fields "node" conflict because \#
                    subfields "owner" conflict because subfields "id" conflict because "id" and "name" are different \#
                    fields. Use different aliases on the fields to fetch both if this was intentional.
                    """#,
            ]
        ),
        Case(
            query: "query Q($v: [Int]) { numbers(values: $v) }",
            expected: [
                #"""
                    VariablesInAllowedPositionRule 1:9,1:38 Variable "$v" of type "[Int]" used in position expecting \#
                    type "[Int!]!".
                    """#,
            ]
        ),
        Case(
            query: "query Q($v: [Int!]) { numbers(values: $v) }",
            expected: [
                #"""
                    VariablesInAllowedPositionRule 1:9,1:39 Variable "$v" of type "[Int!]" used in position expecting \#
                    type "[Int!]!".
                    """#,
            ]
        ),
        Case(
            query: "query Q($v: Int) { numbers(values: [$v]) }",
            expected: [
                #"""
                    VariablesInAllowedPositionRule 1:9,1:37 Variable "$v" of type "Int" used in position expecting \#
                    type "Int!".
                    """#,
            ]
        ),
        Case(query: "query Q($v: Int!) { numbers(values: [$v]) }", expected: []),
        Case(query: "query Q($v: Int) { pets(filter: {limit: $v}) { __typename } }", expected: []),
        Case(query: "query Q($v: Boolean!) { pets @include(if: $v) { __typename } }", expected: []),
        Case(
            query: "query Q($v: Boolean) { pets @include(if: $v) { __typename } }",
            expected: [
                #"""
                    VariablesInAllowedPositionRule 1:9,1:42 Variable "$v" of type "Boolean" used in position \#
                    expecting type "Boolean!".
                    """#,
            ]
        ),
        Case(
            query: "query Q($p: Point = {x: 1}) { at(point: $p) }",
            expected: [
                "ValuesOfCorrectTypeRule 1:21 Field \"Point.y\" of required type \"Float!\" was not provided.",
            ]
        ),
        Case(
            query: "query Q($p: Pet) { flag }",
            expected: [
                "VariablesAreInputTypesRule 1:13 Variable \"$p\" cannot be non-input type \"Pet\".",
                "NoUnusedVariablesRule 1:9 Variable \"$p\" is never used in operation \"Q\".",
            ]
        ),
        Case(
            query: "query Q($p: [Dog!]!) { flag }",
            expected: [
                "VariablesAreInputTypesRule 1:13 Variable \"$p\" cannot be non-input type \"[Dog!]!\".",
                "NoUnusedVariablesRule 1:9 Variable \"$p\" is never used in operation \"Q\".",
            ]
        ),
        Case(
            query: "query Q($p: Float) { flag }",
            expected: [
                "NoUnusedVariablesRule 1:9 Variable \"$p\" is never used in operation \"Q\".",
            ]
        ),
        Case(
            query: "query Q($p: Strin) { flag }",
            expected: [
                "KnownTypeNamesRule 1:13 Unknown type \"Strin\". Did you mean \"String\"?",
                "NoUnusedVariablesRule 1:9 Variable \"$p\" is never used in operation \"Q\".",
            ]
        ),
        Case(
            query: "{ dogs { name } }",
            expected: [
                "FieldsOnCorrectTypeRule 1:3 Cannot query field \"dogs\" on type \"Query\".",
            ]
        ),
        Case(
            query: "{ pets { nam } }",
            expected: [
                "FieldsOnCorrectTypeRule 1:10 Cannot query field \"nam\" on type \"Pet\".",
            ]
        ),
        Case(
            query: "{ node { id } }",
            expected: [
                #"""
                    ProvidedRequiredArgumentsRule 1:3 Field "node" argument "id" of type "ID!" is required, but it \#
                    was not provided.
                    """#,
            ]
        ),
        Case(
            query: "{ search(txt: \"a\") { __typename } }",
            expected: [
                #"""
                    KnownArgumentNamesRule 1:10 Unknown argument "txt" on field "Query.search". Did you mean "text"?
                    """#,
                #"""
                    ProvidedRequiredArgumentsRule 1:3 Field "search" argument "text" of type "String!" is required, \#
                    but it was not provided.
                    """#,
            ]
        ),
        Case(
            query: "{ flag { x } }",
            expected: [
                #"""
                    ScalarLeafsRule 1:8 Field "flag" must not have a selection since type "Boolean" has no subfields.
                    """#,
            ]
        ),
        Case(
            query: "{ pets }",
            expected: [
                #"""
                    ScalarLeafsRule 1:3 Field "pets" of type "[Pet!]!" must have a selection of subfields. Did you \#
                    mean "pets { ... }"?
                    """#,
            ]
        ),
        Case(
            query: #"""
                fragment A on Query { ...B } fragment B on Query { ...C } fragment C on Query { ...A ...B } { ...A }
                """#,
            expected: [
                "NoFragmentCyclesRule 1:23,1:52,1:81 Cannot spread fragment \"A\" within itself via \"B\", \"C\".",
                "NoFragmentCyclesRule 1:52,1:86 Cannot spread fragment \"B\" within itself via \"C\".",
            ]
        ),
        Case(
            query: "fragment A on Query { flag } fragment A on Query { flag } { ...A }",
            expected: [
                "UniqueFragmentNamesRule 1:10,1:39 There can be only one fragment named \"A\".",
            ]
        ),
        Case(
            query: "{ ...Missing }",
            expected: [
                "KnownFragmentNamesRule 1:6 Unknown fragment \"Missing\".",
            ]
        ),
        Case(
            query: "query Q { f1: flag } query Q { f2: flag }",
            expected: [
                "UniqueOperationNamesRule 1:7,1:28 There can be only one operation named \"Q\".",
            ]
        ),
        Case(
            query: "query Q($x: Int, $x: Int, $x: Boolean) { flag }",
            expected: [
                "UniqueVariableNamesRule 1:10,1:19,1:28 There can be only one variable named \"$x\".",
                "NoUnusedVariablesRule 1:9 Variable \"$x\" is never used in operation \"Q\".",
                "NoUnusedVariablesRule 1:18 Variable \"$x\" is never used in operation \"Q\".",
                "NoUnusedVariablesRule 1:27 Variable \"$x\" is never used in operation \"Q\".",
            ]
        ),
        Case(
            query: "{ flag(on: true, on: false) }",
            expected: [
                "UniqueArgumentNamesRule 1:8,1:18 There can be only one argument named \"on\".",
            ]
        ),
        Case(query: "{ pets { ... on Named { name } } }", expected: []),
        Case(
            query: "{ at(point: {x: 1, y: 2, z: 3}) }",
            expected: [
                #"""
                    ValuesOfCorrectTypeRule 1:26 Field "z" is not defined by type "Point". Did you mean "x" or "y"?
                    """#,
            ]
        ),
        Case(
            query: "{ pets(first: \"ten\") { __typename } }",
            expected: [
                "ValuesOfCorrectTypeRule 1:15 Int cannot represent non-integer value: \"ten\"",
            ]
        ),
        Case(query: "query Q($p: Point!) { at(point: $p) }", expected: []),
    ]

    @Test(arguments: cases)
    func reportsWhatGraphQLJSReports(_ testCase: Case) throws {
        let schema = try #require(Self.schema)
        let diagnostics = Validator(schema: schema).validate(try Parser.parse(testCase.query))
        let actual = diagnostics.map { diagnostic in
            let places = diagnostic.locations.map { "\($0.line):\($0.column)" }.joined(separator: ",")
            return "\(diagnostic.rule ?? "") \(places) \(diagnostic.message)"
        }
        #expect(actual.sorted() == testCase.expected.sorted())
    }
}
