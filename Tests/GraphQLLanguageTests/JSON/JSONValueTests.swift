import Testing
import GraphQLLanguage

@Suite struct JSONValueTests {
    @Test func parsesEveryKindAndKeepsMemberOrder() throws {
        let value = try JSONValue(parsing: #"{"b": [1, 2.5, -0, 1e2], "a": {"x": null, "y": true}, "s": "\u00e9\ud83d\ude00\n"}"#)
        #expect(value.serialized() == #"{"b":[1,2.5,0,100.0],"a":{"x":null,"y":true},"s":"é😀\n"}"#)
        #expect(value["a"]?["y"] == .bool(true))
        #expect(value["b"]?[0]?.intValue == 1)
    }

    @Test func canonicalLayoutSortsKeysAndKeepsNumberKinds() throws {
        let first = try JSONValue(parsing: #"{"z": 1, "a": {"d": 1.0, "c": "1"}}"#)
        let second = try JSONValue(parsing: #"{"a": {"c": "1", "d": 10e-1}, "z": 1}"#)
        #expect(first.serialized(.canonical) == second.serialized(.canonical))
        #expect(first.serialized(.canonical) == #"{"a":{"c":"1","d":1.0},"z":1}"#)
        #expect(JSONValue.number(JSONNumber(1)) != JSONValue.number(JSONNumber(1.0)!))
    }

    @Test func escapesControlCharactersAndQuotes() {
        let value: JSONValue = ["k\"": "a\u{0}b\\c\u{1F}"]
        #expect(value.serialized() == #"{"k\"":"a\u0000b\\c\u001f"}"#)
    }

    @Test(arguments: [
        ("", 1, 1), ("{", 1, 2), ("[1,]", 1, 4), ("{\"a\" 1}", 1, 6), ("01", 1, 1), ("\"\\x\"", 1, 2),
        ("\"\\ud800\"", 1, 8), ("[1]\n x", 2, 2), ("tru", 1, 1), ("\"a\nb\"", 1, 3),
    ])
    func reportsWhereTheTextIsWrong(text: String, line: Int, column: Int) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: text)
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
    }

    @Test func prettyLayoutIndentsByTwoSpaces() throws {
        let value = try JSONValue(parsing: #"{"a":[1,{}],"b":[]}"#)
        #expect(value.serialized(.pretty) == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}")
    }
}
