import Foundation
import Gateway
import Testing

extension TokenTests {
    @Suite struct CredentialTests {
        let credential = Credential(accessToken: "at-SECRET-1", refreshToken: "rt-SECRET-2",
                                    expiresAt: Date(timeIntervalSince1970: 1_750_000_000), subject: "user-42")

        @Test func neitherDescriptionNorDumpShowsATokenNeitherDoesAStoreOrAnError() {
            var dumped = ""
            dump(credential, to: &dumped)
            var storeDump = ""
            dump(MemoryTokenStore(credential), to: &storeDump)
            let texts = [
                credential.description, String(reflecting: credential), "\(credential)", dumped,
                MemoryTokenStore(credential).description, storeDump, String(describing: [credential]),
            ]
            for text in texts {
                #expect(!text.contains("SECRET"), "\(text)")
            }
            #expect(credential.description.contains("user-42"))
            #expect(credential.description.contains("2025-06-15T15:06:40Z"))
            #expect(dumped.contains("<redacted>"))
        }

        @Test func itEncodesAsSnakeCaseJSONAndComesBackTheSame() throws {
            let data = try JSONEncoder().encode(credential)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(Set(object.keys) == ["access_token", "refresh_token", "expires_at", "subject"])
            #expect(object["expires_at"] as? Double == 1_750_000_000)
            #expect(try JSONDecoder().decode(Credential.self, from: data) == credential)
            let minimal = try JSONDecoder().decode(Credential.self, from: Data(#"{"access_token":"a"}"#.utf8))
            #expect(minimal == Credential(accessToken: "a"))
        }

        @Test(arguments: [
            #"{}"#, #"{"access_token":""}"#, #"{"access_token":1}"#, #"{"access_token":"a","expires_at":"x"}"#,
        ])
        func aBadCredentialIsADecodingError(json: String) {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Credential.self, from: Data(json.utf8)) }
        }

        @Test func expiryIsMeasuredAgainstTheDateGiven() {
            let now = Date(timeIntervalSince1970: 1_000)
            let credential = Credential(accessToken: "a", expiresIn: .seconds(60), now: now)
            #expect(credential.expiresAt == Date(timeIntervalSince1970: 1_060))
            #expect(!credential.isExpired(at: now))
            #expect(credential.isExpired(at: now.addingTimeInterval(60)))
            #expect(!credential.expires(within: .seconds(30), of: now))
            #expect(credential.expires(within: .seconds(30), of: now.addingTimeInterval(31)))
            #expect(!Credential(accessToken: "a").expires(within: .seconds(3600), of: now))
        }
    }
}

extension TokenTests {
    @Suite struct UnauthenticatedPredicateTests {
        let request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/graphql")!)

        func response(_ status: Int, _ body: String) -> HTTPResponse {
            HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }

        @Test(arguments: [
            (401, "", true),
            (403, "", false),
            (200, #"{"data":null,"errors":[{"message":"no","extensions":{"code":"UNAUTHENTICATED"}}]}"#, true),
            (200, #"  {"errors":[{"message":"a"},{"message":"b","extensions":{"code":"UNAUTHENTICATED"}}]}"#, true),
            (200, #"{"errors":[{"message":"no","extensions":{"code":"FORBIDDEN"}}]}"#, false),
            (200, #"{"data":{"code":"UNAUTHENTICATED"}}"#, false),
            (200, #"{"errors":[{"message":"UNAUTHENTICATED"}]}"#, false),
            (200, "<html>UNAUTHENTICATED</html>", false),
            (200, #"{"errors":[{"extensions":{"code":"UNAUTHENTICATED"}"#, false),
            (200, #"[{"errors":[{"extensions":{"code":"UNAUTHENTICATED"}}]}]"#, false),
            (200, "", false),
        ])
        func theStandardPredicateKnowsBothKindsOfRefusal(status: Int, body: String, refused: Bool) {
            #expect(UnauthenticatedPredicate.standard.matches(response(status, body), for: request) == refused)
        }

        @Test func predicatesCombine() {
            let custom = UnauthenticatedPredicate.status(419).or(.graphQLErrorCode("AUTH_REQUIRED"))
            #expect(custom.matches(response(419, ""), for: request))
            #expect(!custom.matches(response(401, ""), for: request))
            let graphQL = response(200, #"{"errors":[{"extensions":{"code":"AUTH_REQUIRED"}}]}"#)
            #expect(custom.matches(graphQL, for: request))
            #expect(custom.description == "HTTP 419 or a GraphQL error AUTH_REQUIRED")
        }

        @Test func theProvidersGraphQLPredicateCanDecideTheRefresh() {
            let settings = { var s = GraphQLSettings(); s.unauthenticated = .code("TOKEN_EXPIRED"); return s }()
            let predicate = UnauthenticatedPredicate.graphQLErrors(settings.unauthenticated)
            let expired = response(200, #"{"errors":[{"message":"x","extensions":{"code":"TOKEN_EXPIRED"}}]}"#)
            let other = response(200, #"{"errors":[{"message":"x","extensions":{"code":"UNAUTHENTICATED"}}]}"#)
            #expect(predicate.matches(expired, for: request))
            #expect(!predicate.matches(other, for: request))
            #expect(!predicate.matches(response(401, ""), for: request))
            #expect(!predicate.matches(response(200, #"{"data":{"errors":1}}"#), for: request))
            #expect(predicate.description == #"a GraphQL error with extensions.code == "TOKEN_EXPIRED""#)
        }

        @Test func aDeeplyNestedBodyIsNotACrash() {
            let body = "{\"errors\":" + String(repeating: "[", count: 100_000) + "\"UNAUTHENTICATED\""
            #expect(!UnauthenticatedPredicate.standard.matches(response(200, body), for: request))
        }
    }
}
