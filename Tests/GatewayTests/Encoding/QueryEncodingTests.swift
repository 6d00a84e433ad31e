import Foundation
import Gateway
import Testing

@Suite struct QueryEncodingTests {
    private func query(_ parameters: some Encodable & Sendable, _ encoder: QueryParameterEncoder = .query,
                       url: String = "https://api.example.com/v1/items") throws -> String {
        var request = HTTPRequest(method: .get, url: URL(string: url)!)
        try encoder.encode(parameters, into: &request)
        return URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
    }

    @Test(arguments: [
        (URLEncodingOptions.ArrayEncoding.brackets, "a%5B%5D=1&a%5B%5D=2"),
        (.repeated, "a=1&a=2"),
        (.indexed, "a%5B0%5D=1&a%5B1%5D=2"),
    ])
    func arraysFollowTheStrategy(arrays: URLEncodingOptions.ArrayEncoding, expected: String) throws {
        #expect(try query(["a": [1, 2]], .query(arrays: arrays)) == expected)
    }

    @Test(arguments: [
        (URLEncodingOptions.BoolEncoding.numeric, "off=0&on=1"),
        (.literal, "off=false&on=true"),
    ])
    func boolsFollowTheStrategy(bools: URLEncodingOptions.BoolEncoding, expected: String) throws {
        #expect(try query(["on": true, "off": false], .query(bools: bools)) == expected)
    }

    @Test func datesAsSecondsSince1970() throws {
        #expect(try query(["at": Date(timeIntervalSince1970: 1_700_000_000)], .query(dates: .secondsSince1970))
            == "at=1700000000")
        #expect(try query(["at": Date(timeIntervalSince1970: 1_700_000_000.5)], .query(dates: .secondsSince1970))
            == "at=1700000000.5")
    }

    @Test func datesAsMillisecondsSince1970() throws {
        #expect(try query(["at": Date(timeIntervalSince1970: 1_700_000_000.25)], .query(dates: .millisecondsSince1970))
            == "at=1700000000250")
    }

    @Test func datesAsISO8601InUTC() throws {
        #expect(try query(["at": Date(timeIntervalSince1970: 1_700_000_000)], .query(dates: .iso8601))
            == "at=2023-11-14T22%3A13%3A20Z")
    }

    @Test func datesWithACustomFormatter() throws {
        let encoder = QueryParameterEncoder.query(dates: .custom { "day-\(Int($0.timeIntervalSince1970) / 86_400)" })
        #expect(try query(["at": Date(timeIntervalSince1970: 1_700_000_000)], encoder) == "at=day-19675")
    }

    @Test func nestedObjectsUseBracketedKeys() throws {
        struct Owner: Encodable, Sendable { let name: String; let address: Address }
        struct Address: Encodable, Sendable { let city: String }
        struct Filter: Encodable, Sendable { let owner: Owner; let limit: Int }
        let filter = Filter(owner: Owner(name: "Ada", address: Address(city: "London")), limit: 5)
        #expect(try query(filter) == "limit=5&owner%5Baddress%5D%5Bcity%5D=London&owner%5Bname%5D=Ada")
    }

    @Test func objectsInsideArraysKeepTheirIndexOrBrackets() throws {
        struct Item: Encodable, Sendable { let id: Int }
        #expect(try query(["items": [Item(id: 1), Item(id: 2)]], .query(arrays: .indexed))
            == "items%5B0%5D%5Bid%5D=1&items%5B1%5D%5Bid%5D=2")
        #expect(try query(["items": [Item(id: 1)]]) == "items%5B%5D%5Bid%5D=1")
    }

    @Test func escapingKeepsOnlyUnreservedCharacters() throws {
        #expect(try query(["q": "a b+c/d?e&f=g#h%é~-._*[]"])
            == "q=a%20b%2Bc%2Fd%3Fe%26f%3Dg%23h%25%C3%A9~-._%2A%5B%5D")
        #expect(try query(["key with space": "1"]) == "key%20with%20space=1")
    }

    @Test func keysAreSorted() throws {
        #expect(try query(["zeta": 1, "alpha": 2, "Beta": 3, "beta": 4]) == "Beta=3&alpha=2&beta=4&zeta=1")
    }

    @Test func nilValuesAndEmptyContainersAreLeftOut() throws {
        struct Filter: Encodable, Sendable { let a: Int?; let b: [Int]; let c: String }
        #expect(try query(Filter(a: nil, b: [], c: "x")) == "c=x")
    }

    @Test func numbersAreWrittenPlainly() throws {
        struct Numbers: Encodable, Sendable { let i: Int; let d: Double; let whole: Double; let negative: Int64 }
        #expect(try query(Numbers(i: 7, d: 2.5, whole: 3, negative: -12)) == "d=2.5&i=7&negative=-12&whole=3")
    }

    @Test func parametersAreAppendedToAnExistingQuery() throws {
        #expect(try query(["b": 2], url: "https://api.example.com/items?a=1") == "a=1&b=2")
    }

    @Test func aTopLevelArrayIsAClearError() throws {
        let error = try #require(throws: GatewayError.self) { try query([1, 2, 3]) }
        #expect(error.kind == .encoding)
        #expect(error.message.contains("named parameters"))
    }

    @Test func aNonFiniteNumberIsAClearError() throws {
        let error = try #require(throws: GatewayError.self) { try query(["x": Double.nan]) }
        #expect(error.kind == .encoding)
        #expect(error.message.contains("at x"))
    }

    @Test func nestingTooDeepIsAnErrorNotACrash() throws {
        final class Chain: Encodable, @unchecked Sendable {
            let next: Chain?
            init(depth: Int) { next = depth > 0 ? Chain(depth: depth - 1) : nil }
        }
        let error = try #require(throws: GatewayError.self) { try query(Chain(depth: 500)) }
        #expect(error.kind == .encoding)
        #expect(error.message.contains("nested deeper"))
    }

    @Test func aValueThatEncodesItselfIsStopped() throws {
        struct Loop: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(self)
            }
        }
        let error = try #require(throws: GatewayError.self) { try query(["loop": Loop()]) }
        #expect(error.kind == .encoding)
    }
}
