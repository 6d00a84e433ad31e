import GraphQLLanguage
import Testing
@testable import Gateway

@Suite struct CanonicalJSONWriterTests {
    static let documents = [
        #"{"b":1,"a":2}"#,
        #"{"a":1,"a":2,"b":{"z":[],"y":{}}}"#,
        #"{"ab":1,"a":2,"b":3,"":4,"é":5,"e":6,"z":7,"Z":8}"#,
        #"{"id":"1","n":1,"f":1.0,"e":1e2,"t":true,"x":null,"s":"line\nbreak\ttab\u0001\u001f\"q\"\\"}"#,
        #"[1,"1",1.5,-0,-2.5e-7,[],{},[{"b":1,"a":[{"d":1,"c":2}]}]]"#,
        #"{"k":{"k":{"k":{"k":{"b":1,"a":1,"b":2}}}}}"#,
        #""plain""#, "12", "null", "false",
        #"{"emoji":"😀","han":"漢字","nul":"a\u0000b","del":"\u007f"}"#,
    ]

    @Test(arguments: documents)
    func writesWhatTheGeneralSerializerWrites(document: String) throws {
        let value = try JSONValue(parsing: document)
        #expect(String(decoding: CanonicalJSONWriter.bytes(value), as: UTF8.self) == value.serialized(.canonical))
    }

    @Test func valuesBuiltInCodeAndVeryDeepValuesMatchToo() {
        var object = JSONObject()
        object["z"] = 1
        object["a"] = "x"
        object["m"] = [nil, true, 2.5]
        object["a"] = "replaced"
        let built = JSONValue.object(object)
        #expect(String(decoding: CanonicalJSONWriter.bytes(built), as: UTF8.self) == built.serialized(.canonical))
        var deep: JSONValue = ["b": 1, "a": 2]
        for level in 0..<300 { deep = level % 2 == 0 ? [deep] : ["k\(level)": deep, "a": nil] }
        #expect(String(decoding: CanonicalJSONWriter.bytes(deep), as: UTF8.self) == deep.serialized(.canonical))
    }
}
