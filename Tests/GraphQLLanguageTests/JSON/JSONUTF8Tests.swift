import Testing
import GraphQLLanguage

/// JSON text must be UTF-8 (RFC 8259 §8.1): bytes that are not are an error at their offset,
/// never replaced quietly.
@Suite struct JSONUTF8Tests {
    @Test(arguments: [
        ([0xFF], "a byte that never starts a sequence"),
        ([0xC3], "a sequence cut short by the quote"),
        ([0xC0, 0xAF], "an overlong form of '/'"),
        ([0xED, 0xA0, 0x80], "an encoded surrogate"),
        ([0x80], "a lone continuation byte"),
    ] as [([UInt8], String)])
    func invalidUTF8InAStringIsAnErrorAtItsByteOffset(bytes: [UInt8], _ what: String) {
        let text: [UInt8] = Array(#"{"name": "aé"#.utf8) + bytes + Array(#"z"}"#.utf8)
        let error = #expect(throws: JSONSyntaxError.self, "\(what)") { try JSONValue(parsing: text) }
        #expect(error?.offset == 13, "\(what)")
        #expect(error?.message == "invalid UTF-8 in a string at byte offset 13", "\(what)")
    }

    @Test func validMultiByteCharactersStillParse() throws {
        let value = try JSONValue(parsing: Array(#"{"s": "é€😀"}"#.utf8))
        #expect(value["s"] == "é€😀")
    }
}
