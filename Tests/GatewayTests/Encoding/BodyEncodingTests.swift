import Foundation
import Gateway
import Testing

@Suite struct BodyEncodingTests {
    struct Signup: Encodable, Sendable {
        let name: String
        let tags: [String]
        let newsletter: Bool
        let profile: Profile
    }

    struct Profile: Encodable, Sendable {
        let city: String
        let born: Date
    }

    private let signup = Signup(name: "Ada Lovelace+1", tags: ["math", "poetry"], newsletter: true,
                                profile: Profile(city: "Lon don", born: Date(timeIntervalSince1970: 0)))

    @Test func formBodyUsesPlusForSpacesAndTheQueryRules() throws {
        var request = blankRequest()
        try FormParameterEncoder.form.encode(signup, into: &request)
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self)
            == "name=Ada+Lovelace%2B1&newsletter=1&profile%5Bborn%5D=1970-01-01T00%3A00%3A00Z"
            + "&profile%5Bcity%5D=Lon+don&tags%5B%5D=math&tags%5B%5D=poetry")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func formBodyFollowsItsStrategies() throws {
        var request = blankRequest()
        try FormParameterEncoder.form(arrays: .repeated, bools: .literal, dates: .secondsSince1970)
            .encode(signup, into: &request)
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self)
            == "name=Ada+Lovelace%2B1&newsletter=true&profile%5Bborn%5D=0&profile%5Bcity%5D=Lon+don"
            + "&tags=math&tags=poetry")
    }

    @Test func jsonBodyHasSortedKeysAndItsContentType() throws {
        var request = blankRequest()
        try JSONParameterEncoder.json.encode(["b": ["2", "1"], "a": ["/x", "é"]], into: &request)
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self) == #"{"a":["/x","é"],"b":["2","1"]}"#)
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test func nestedJSONKeysAreSortedToo() throws {
        struct Inner: Encodable, Sendable { let y = 1, b = 2 }
        struct Outer: Encodable, Sendable { let z = Inner(), a = "x" }
        var request = blankRequest()
        try JSONParameterEncoder.json.encode(Outer(), into: &request)
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self) == #"{"a":"x","z":{"b":2,"y":1}}"#)
    }

    @Test func jsonBodyFollowsItsOwnOptions() throws {
        struct Event: Encodable, Sendable { let startsAt: Date }
        var request = blankRequest()
        try JSONParameterEncoder.json(dates: .secondsSince1970, keys: .convertToSnakeCase)
            .encode(Event(startsAt: Date(timeIntervalSince1970: 10)), into: &request)
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self) == #"{"starts_at":10}"#)
    }

    @Test func jsonBodyFollowsTheProvidersOptionsByDefault() throws {
        struct Event: Encodable, Sendable { let startsAt: Date }
        var request = blankRequest()
        let context = ParameterEncodingContext(json: JSONEncodingOptions(dates: .iso8601))
        try JSONParameterEncoder.json.encode(Event(startsAt: Date(timeIntervalSince1970: 0)), into: &request,
                                             context: context)
        #expect(String(decoding: try bodyBytes(request), as: UTF8.self) == #"{"startsAt":"1970-01-01T00:00:00Z"}"#)
    }

    @Test func anExistingContentTypeIsKept() throws {
        var request = blankRequest()
        request.headers["Content-Type"] = "application/vnd.api+json"
        try JSONParameterEncoder.json.encode(["a": 1], into: &request)
        #expect(request.headers["Content-Type"] == "application/vnd.api+json")
    }

    @Test func aSecondBodyEncoderIsAClearError() throws {
        var request = blankRequest()
        try JSONParameterEncoder.json.encode(["a": 1], into: &request)
        let error = try #require(throws: GatewayError.self) {
            try FormParameterEncoder.form.encode(["b": 2], into: &request)
        }
        #expect(error.kind == .encoding)
        #expect(error.message.contains("already has a body"))
    }

    @Test func aMultipartFormSentAsJSONIsAClearError() throws {
        var request = blankRequest()
        let error = try #require(throws: GatewayError.self) {
            try JSONParameterEncoder.json.encode(MultipartForm([.text("a", "b")]), into: &request)
        }
        #expect(error.message.contains(".multipart"))
    }

    static let encoders: [(String, any ParameterEncoder)] = [
        ("json", JSONParameterEncoder.json),
        ("query", QueryParameterEncoder.query),
        ("form", FormParameterEncoder.form),
        ("multipart", MultipartParameterEncoder.multipart(boundary: .fixed("fixed-boundary"))),
    ]

    @Test(arguments: encoders.map(\.0))
    func theSameInputGivesTheSameBytes(name: String) throws {
        let encoder = try #require(Self.encoders.first { $0.0 == name }?.1)
        var outputs: [String] = []
        for _ in 0..<20 {
            var request = blankRequest()
            let parameters: [String: [String: Int]] = ["x": ["q": 1, "b": 2, "m": 3, "a": 4], "c": ["z": 0, "k": 9]]
            try encoder.encode(parameters, into: &request)
            outputs.append(request.url.absoluteString + "|" + String(decoding: try bodyBytes(request), as: UTF8.self))
        }
        #expect(Set(outputs).count == 1)
    }
}
