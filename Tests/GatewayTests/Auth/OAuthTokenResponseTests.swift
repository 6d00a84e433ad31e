import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// RFC 6749 §5.1 answers, as servers send them, turned into credentials.
    @Suite struct OAuthTokenResponseTests {
        private func decode(_ json: String, keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys) throws
            -> OAuthTokenResponse
        {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = keys
            return try decoder.decode(OAuthTokenResponse.self, from: Data(json.utf8))
        }

        @Test func readsEveryFieldOfTheStandardAnswer() throws {
            let answer = try decode(#"""
                {"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt","scope":"read write",
                 "id_token":"ignored"}
                """#)
            #expect(answer == OAuthTokenResponse(accessToken: "at", tokenType: "Bearer", expiresIn: .seconds(3600),
                                                 refreshToken: "rt", scope: "read write"))
            #expect(answer.scopes == ["read", "write"])
        }

        @Test(arguments: [#"3600"#, #""3600""#, #"3600.0"#, #"" 3600 ""#])
        func expiresInMayBeANumberOrANumericString(_ value: String) throws {
            let answer = try decode(#"{"access_token":"at","expires_in":\#(value)}"#)
            #expect(answer.expiresIn == .seconds(3600))
        }

        @Test func onlyTheAccessTokenIsRequired() throws {
            let answer = try decode(#"{"access_token":"at","expires_in":null,"refresh_token":""}"#)
            #expect(answer == OAuthTokenResponse(accessToken: "at", tokenType: nil))
            #expect(answer.scopes.isEmpty)
            #expect(answer.credential(now: Date(timeIntervalSince1970: 0)).expiresAt == nil)
        }

        @Test func aListOfScopesIsReadAsTheSpaceSeparatedString() throws {
            #expect(try decode(#"{"access_token":"at","scope":["a","b"]}"#).scope == "a b")
        }

        @Test(arguments: [
            (#"{"token_type":"Bearer"}"#, "access_token"),
            (#"{"access_token":""}"#, "the access token is empty"),
            (#"{"access_token":"at","expires_in":"soon"}"#, "expires_in is not a number"),
            (#"{"access_token":"at","expires_in":-5}"#, "from 0 to 100 years"),
            (#"{"access_token":"at","expires_in":1e300}"#, "from 0 to 100 years"),
            (#"{"access_token":"at","expires_in":true}"#, "neither a number nor a numeric string"),
        ])
        func aBadAnswerIsRefusedSayingWhatIsWrong(_ json: String, says reason: String) throws {
            let error = try #require(throws: DecodingError.self) { try decode(json) }
            #expect(String(describing: error).contains(reason), "\(error)")
        }

        @Test func theProvidersSnakeCaseConversionDoesNotHideTheFields() throws {
            let answer = try decode(#"{"access_token":"at","expires_in":"60","refresh_token":"rt"}"#,
                                    keys: .convertFromSnakeCase)
            #expect(answer == OAuthTokenResponse(accessToken: "at", tokenType: nil, expiresIn: .seconds(60),
                                                 refreshToken: "rt"))
        }

        @Test func theCredentialExpiresExpiresInAfterTheMomentGiven() {
            let now = Date(timeIntervalSince1970: 1_750_000_000)
            let answer = OAuthTokenResponse(accessToken: "at", expiresIn: .seconds(90), refreshToken: "rt")
            #expect(answer.credential(subject: "user-7", now: now) == Credential(
                accessToken: "at", refreshToken: "rt", expiresAt: now.addingTimeInterval(90), subject: "user-7"))
        }

        @Test func neitherTheDescriptionNorDumpShowsAToken() {
            let answer = OAuthTokenResponse(accessToken: "secret-at", expiresIn: .seconds(60),
                                            refreshToken: "secret-rt", scope: "read")
            var dumped = ""
            dump(answer, to: &dumped)
            for text in [answer.description, String(reflecting: answer), dumped] {
                #expect(!text.contains("secret"), "\(text)")
                #expect(text.contains(Redaction.placeholder))
            }
            #expect(answer.description
                == "OAuthTokenResponse(Bearer, expires in 60 s, scope: read, access token: <redacted>, "
                + "refresh token: <redacted>)")
        }

        @Test func theRefreshAuthenticatorReadsANumericStringExpiry() async throws {
            let clock = FrozenClock()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: .json(#"{"access_token":"new","expires_in":"120","subject":"u2"}"#))
            let store = MemoryTokenStore(oldCredential)
            _ = try await tokenProvider(stub, store: store, clock: clock).send(Endpoint<Empty>.get("items"))
            #expect(store.load() == Credential(accessToken: "new", refreshToken: "rt-1",
                                               expiresAt: clock.date.addingTimeInterval(120), subject: "u2"))
        }
    }
}
