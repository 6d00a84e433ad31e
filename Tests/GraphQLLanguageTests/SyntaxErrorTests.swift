import GraphQLLanguage
import Testing

/// Syntax errors carry graphql-js 16's message and stop at the marked position (`1️⃣`).
///
/// The expectations were checked against graphql-core 3.2.8, which differs from graphql-js only in
/// quoting tokens with single quotes.
@Suite struct SyntaxErrorTests {
    /// Errors of the grammar: missing, unexpected and misplaced tokens.
    static let grammarCases: [(String, String)] = [
        ("1️⃣", "Syntax Error: Unexpected <EOF>."),
        (" 1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("# only a comment1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("{1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("1️⃣}", "Syntax Error: Unexpected \"}\"."),
        ("{1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("query1️⃣", "Syntax Error: Expected \"{\", found <EOF>."),
        ("query Q1️⃣", "Syntax Error: Expected \"{\", found <EOF>."),
        ("query Q(1️⃣", "Syntax Error: Expected \"$\", found <EOF>."),
        ("query Q($1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("query Q($a1️⃣", "Syntax Error: Expected \":\", found <EOF>."),
        ("query Q($a:1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("query Q($a: [1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("query Q($a: [A1️⃣", "Syntax Error: Expected \"]\", found <EOF>."),
        ("query Q($a: [A]!1️⃣!) { a }", "Syntax Error: Expected \"$\", found \"!\"."),
        ("fragment 1️⃣on on A { a }", "Syntax Error: Unexpected Name \"on\"."),
        ("fragment 1️⃣\"on\" on A { a }", "Syntax Error: Unexpected String \"on\"."),
        ("fragment A on A1️⃣", "Syntax Error: Expected \"{\", found <EOF>."),
        ("fragment A 1️⃣{ a }", "Syntax Error: Expected \"on\", found \"{\"."),
        ("{ ...on 1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("{ ... @d 1️⃣}", "Syntax Error: Expected \"{\", found \"}\"."),
        ("query ($a: A = 1️⃣$b) { a }", "Syntax Error: Unexpected variable \"$b\" in constant value."),
        ("query ($a: A = [1️⃣$b]) { a }", "Syntax Error: Unexpected variable \"$b\" in constant value."),
        ("query ($a: A = {b: 1️⃣$c}) { a }", "Syntax Error: Unexpected variable \"$c\" in constant value."),
        ("query ($a: A @d(x: 1️⃣$y)) { a }", "Syntax Error: Unexpected variable \"$y\" in constant value."),
        ("type A { f(a: Int = 1️⃣$x): Int }", "Syntax Error: Unexpected variable \"$x\" in constant value."),
        ("enum A { 1️⃣true }", "Syntax Error: Name \"true\" is reserved and cannot be used for an enum value."),
        ("enum A { 1️⃣false }", "Syntax Error: Name \"false\" is reserved and cannot be used for an enum value."),
        ("enum A { 1️⃣null }", "Syntax Error: Name \"null\" is reserved and cannot be used for an enum value."),
        ("enum A { B \"true\" 1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("extend1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("extend 1️⃣foo", "Syntax Error: Unexpected Name \"foo\"."),
        ("extend type1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("extend type A1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("extend scalar A1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("extend schema1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("extend union U1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("extend enum E1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("extend input I1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("extend interface I1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("schema {1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("schema { 1️⃣foo: Q }", "Syntax Error: Unexpected Name \"foo\"."),
        (
            "1️⃣\"d\" extend type A @d",
            "Syntax Error: Unexpected description, descriptions are supported only on type definitions."
        ),
        (
            "1️⃣\"d\" query { a }",
            "Syntax Error: Unexpected description, descriptions are supported only on type definitions."
        ),
        (
            "1️⃣\"d\" fragment A on B { c }",
            "Syntax Error: Unexpected description, descriptions are supported only on type definitions."
        ),
        ("\"d\"1️⃣", "Syntax Error: Unexpected <EOF>."),
        ("\"d\" 1️⃣{ a }", "Syntax Error: Unexpected \"{\"."),
        ("directive @a on 1️⃣FOO", "Syntax Error: Unexpected Name \"FOO\"."),
        ("directive @a on1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("directive 1️⃣a on FIELD", "Syntax Error: Expected \"@\", found Name \"a\"."),
        ("directive @a 1️⃣FIELD", "Syntax Error: Expected \"on\", found Name \"FIELD\"."),
        ("directive @a repeatable1️⃣", "Syntax Error: Expected \"on\", found <EOF>."),
        ("type A implements1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("type A implements & 1️⃣{ a: Int }", "Syntax Error: Expected Name, found \"{\"."),
        ("union U = | 1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("union U =1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("input I {1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("type A {1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("enum E {1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("{ a: b1️⃣: c }", "Syntax Error: Expected Name, found \":\"."),
        ("{ a(b: {c 1️⃣1}) }", "Syntax Error: Expected \":\", found Int \"1\"."),
        ("{ a(b: 1️⃣) }", "Syntax Error: Unexpected \")\"."),
        ("{ a(1️⃣) }", "Syntax Error: Expected Name, found \")\"."),
        ("{ a(b1️⃣) }", "Syntax Error: Expected \":\", found \")\"."),
        (
            "{ a(b: 1️⃣'c') }",
            "Syntax Error: Unexpected single quote character ('), did you mean to use a double quote (\")?"
        ),
        ("{ a } 1️⃣b", "Syntax Error: Unexpected Name \"b\"."),
        ("1️⃣Query { a }", "Syntax Error: Unexpected Name \"Query\"."),
        ("query { a1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("{ a { b }1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("{ ... 1️⃣}", "Syntax Error: Expected \"{\", found \"}\"."),
        ("{ 1️⃣.. a }", "Syntax Error: Unexpected character: \".\"."),
        ("{ 1️⃣. }", "Syntax Error: Unexpected character: \".\"."),
        ("{ a @ 1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("{ a @b( 1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("{ a(b: $1️⃣) }", "Syntax Error: Expected Name, found \")\"."),
        ("{ a(b: $1️⃣1) }", "Syntax Error: Expected Name, found Int \"1\"."),
        ("type A { a: [Int 1️⃣}", "Syntax Error: Expected \"]\", found \"}\"."),
        ("type A { a: Int! 1️⃣! }", "Syntax Error: Expected Name, found \"!\"."),
        ("{ a(b: \"c1️⃣\n\") }", "Syntax Error: Unterminated string."),
        ("{ a(b: \"c1️⃣", "Syntax Error: Unterminated string."),
        ("{ a(b: \"\"\"c1️⃣", "Syntax Error: Unterminated string."),
        ("{ a(b: \"\"\"c\\\"\"\" }1️⃣", "Syntax Error: Unterminated string."),
        ("{ a }\n\n  1️⃣\u{7}", "Syntax Error: Unexpected character: U+0007."),
        ("{ a 1️⃣? }", "Syntax Error: Unexpected character: \"?\"."),
        ("{ 1️⃣“a” }", "Syntax Error: Unexpected character: U+201C."),
        ("{ a(b: 1) } 1️⃣}", "Syntax Error: Unexpected \"}\"."),
        ("subscription1️⃣", "Syntax Error: Expected \"{\", found <EOF>."),
        ("mutation M {1️⃣}", "Syntax Error: Expected Name, found \"}\"."),
        ("{ a(b: [1, 21️⃣) }", "Syntax Error: Unexpected \")\"."),
        ("{ a(b: {c: 11️⃣) }", "Syntax Error: Expected Name, found \")\"."),
        ("query Q($a: Int = 1 1️⃣= 2) { a }", "Syntax Error: Expected \"$\", found \"=\"."),
        ("type A implements B @d { a(b: Int = 1 c: Int): Int 1️⃣= 1 }", "Syntax Error: Expected Name, found \"=\"."),
        ("scalar1️⃣", "Syntax Error: Expected Name, found <EOF>."),
        ("scalar 1️⃣\"S\"", "Syntax Error: Expected Name, found String \"S\"."),
        ("schema { query 1️⃣Q }", "Syntax Error: Expected \":\", found Name \"Q\"."),
        ("type A { a 1️⃣}", "Syntax Error: Expected \":\", found \"}\"."),
        ("interface I implements J 1️⃣K { a: Int }", "Syntax Error: Unexpected Name \"K\"."),
    ]

    /// Every kind of bad escape sequence, lone surrogates included.
    static let escapeCases: [(String, String)] = [
        ("{ f(a: \"1️⃣\\x\") }", "Syntax Error: Invalid character escape sequence: \"\\x\"."),
        ("{ f(a: \"\\\") }1️⃣", "Syntax Error: Unterminated string."),
        ("{ f(a: \"1️⃣\\u\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u\") }\"."),
        ("{ f(a: \"1️⃣\\u1\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u1\") \"."),
        ("{ f(a: \"1️⃣\\u12\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u12\")\"."),
        ("{ f(a: \"1️⃣\\u123\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u123\"\"."),
        ("{ f(a: \"1️⃣\\uGGGG\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uGGGG\"."),
        ("{ f(a: \"1️⃣\\u00é9\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u00é9\"."),
        ("{ f(a: \"1️⃣\\é\") }", "Syntax Error: Invalid character escape sequence: \"\\é\"."),
        ("{ f(a: \"1️⃣\\😀\") }", "Syntax Error: Invalid character escape sequence: \"\\😀\"."),
        ("{ f(a: \"1️⃣\\uD800\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uD800\"."),
        ("{ f(a: \"1️⃣\\uDBFF\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uDBFF\"."),
        ("{ f(a: \"1️⃣\\uDC00\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uDC00\"."),
        ("{ f(a: \"1️⃣\\uDFFF\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uDFFF\"."),
        ("{ f(a: \"1️⃣\\uD83D\\u0041\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uD83D\"."),
        ("{ f(a: \"1️⃣\\uD83Dx\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uD83D\"."),
        ("{ f(a: \"1️⃣\\uDE00\\uD83D\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\uDE00\"."),
        ("{ f(a: \"1️⃣\\u{\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{\"\"."),
        ("{ f(a: \"1️⃣\\u{}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{}\"."),
        ("{ f(a: \"1️⃣\\u{g}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{g\"."),
        ("{ f(a: \"1️⃣\\u{41\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{41\"\"."),
        ("{ f(a: \"1️⃣\\u{é}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{é\"."),
        ("{ f(a: \"1️⃣\\u{110000}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{110000}\"."),
        ("{ f(a: \"1️⃣\\u{D800}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{D800}\"."),
        ("{ f(a: \"1️⃣\\u{DFFF}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{DFFF}\"."),
        ("{ f(a: \"1️⃣\\u{000000041}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{000000041\"."),
        ("{ f(a: \"1️⃣\\u{FFFFFFFF}\") }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{FFFFFFFF\"."),
        ("{ f(a: \"1️⃣\\U0041\") }", "Syntax Error: Invalid character escape sequence: \"\\U\"."),
        ("{ f(a: \"1️⃣\\a\") }", "Syntax Error: Invalid character escape sequence: \"\\a\"."),
        ("{ f(a: \"1️⃣\\0\") }", "Syntax Error: Invalid character escape sequence: \"\\0\"."),
        ("{ f(a: \"1️⃣\\'\") }", "Syntax Error: Invalid character escape sequence: \"\\'\"."),
    ]

    /// Every malformed number form.
    static let numberCases: [(String, String)] = [
        ("{ f(a: 01️⃣0) }", "Syntax Error: Invalid number, unexpected digit after 0: \"0\"."),
        ("{ f(a: 01️⃣1) }", "Syntax Error: Invalid number, unexpected digit after 0: \"1\"."),
        ("{ f(a: -01️⃣1) }", "Syntax Error: Invalid number, unexpected digit after 0: \"1\"."),
        ("{ f(a: 1.1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: 1.1️⃣e) }", "Syntax Error: Invalid number, expected digit but got: \"e\"."),
        ("{ f(a: 1e1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: 1e+1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: 1e-1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: 01️⃣x1) }", "Syntax Error: Invalid number, expected digit but got: \"x\"."),
        ("{ f(a: 11️⃣a) }", "Syntax Error: Invalid number, expected digit but got: \"a\"."),
        ("{ f(a: 11️⃣_) }", "Syntax Error: Invalid number, expected digit but got: \"_\"."),
        ("{ f(a: 1.1️⃣a) }", "Syntax Error: Invalid number, expected digit but got: \"a\"."),
        ("{ f(a: 1.1️⃣.2) }", "Syntax Error: Invalid number, expected digit but got: \".\"."),
        ("{ f(a: 1️⃣.5) }", "Syntax Error: Unexpected character: \".\"."),
        ("{ f(a: -1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: -1️⃣-1) }", "Syntax Error: Invalid number, expected digit but got: \"-\"."),
        ("{ f(a: -1️⃣a) }", "Syntax Error: Invalid number, expected digit but got: \"a\"."),
        ("{ f(a: 1.21️⃣.3) }", "Syntax Error: Invalid number, expected digit but got: \".\"."),
        ("{ f(a: 1e11️⃣.5) }", "Syntax Error: Invalid number, expected digit but got: \".\"."),
        ("{ f(a: 1.5e1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: 0e1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: -1️⃣.5) }", "Syntax Error: Invalid number, expected digit but got: \".\"."),
        ("{ f(a: 1️⃣+1) }", "Syntax Error: Unexpected character: \"+\"."),
        ("{ f(a: 1e+1️⃣a) }", "Syntax Error: Invalid number, expected digit but got: \"a\"."),
        ("{ f(a: 01️⃣0.5) }", "Syntax Error: Invalid number, unexpected digit after 0: \"0\"."),
        ("{ f(a: 0.1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: 11️⃣é) }", "Syntax Error: Unexpected character: U+00E9."),
        ("{ f(a: 1\") }1️⃣", "Syntax Error: Unterminated string."),
        ("{ f(a: 01️⃣_) }", "Syntax Error: Invalid number, expected digit but got: \"_\"."),
        ("{ f(a: 1.01️⃣.) }", "Syntax Error: Invalid number, expected digit but got: \".\"."),
        ("{ f(a: 1231️⃣abc) }", "Syntax Error: Invalid number, expected digit but got: \"a\"."),
        ("{ f(a: 1.5E+1️⃣) }", "Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ f(a: -01️⃣x) }", "Syntax Error: Invalid number, expected digit but got: \"x\"."),
    ]

    @Test(arguments: grammarCases)
    func grammarErrorIsReportedAtTheOffendingToken(_ marked: String, _ message: String) {
        expectSyntaxError(marked, message, limits: .schemas)
    }

    @Test(arguments: escapeCases)
    func badEscapeIsReportedAtItsBackslash(_ marked: String, _ message: String) {
        expectSyntaxError(marked, message)
    }

    @Test(arguments: numberCases)
    func malformedNumberIsReportedAtTheBadCharacter(_ marked: String, _ message: String) {
        expectSyntaxError(marked, message)
    }
}
