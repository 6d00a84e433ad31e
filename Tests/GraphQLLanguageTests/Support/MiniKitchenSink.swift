/// A small document that uses every part of the grammar, executable and type system alike.
enum MiniKitchenSink {
    static let text = #"""
        # A comment, then an operation with every kind of value.
        query Q($id: ID! = "x", $list: [[Int!]] = [[1, 2], [3]] @var) @op {
          alias: field(a: 1, b: -2.5e3, c: "é\u00e9\u{1F600}\uD83D\uDE00", d: """
            block \""" string
              indented
          """, e: true, f: null, g: ENUM, h: [1, [2]], i: {j: {k: $id}}, l: $list) @skip(if: false) {
            ...Spread @dir
            ... on Type { x }
            ... @include(if: true) { y }
            ... { z }
          }
        }
        mutation M { m }
        subscription S { s }
        { shorthand }
        fragment Spread on Type @frag { a }

        """
        Schema description.
        """
        schema @s { query: Q mutation: M subscription: S }
        extend schema @t { query: Q }
        "Scalar" scalar Date @specifiedBy(url: "https://example.com")
        extend scalar Date @d
        type Obj implements A & B @o {
          "Field" field("Arg" arg: [Int!] = [1] @a): String! @deprecated(reason: "no")
        }
        extend type Obj implements C { more: Int }
        interface I implements J & K { f: Int }
        extend interface I @i
        union U @u = | A | B
        extend union U = C
        enum E { "One" ONE @e TWO }
        extend enum E { THREE }
        input In @oneOf { a: Int = 1 @x, b: String }
        extend input In { c: Boolean }
        directive @dir(a: Int = 0) repeatable on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        """#
}
