import Foundation
import Gateway
import GatewayLoopback
import GraphQLLanguage
import Testing
@testable import GatewayDemoBackend

/// The example backend's GraphQL executor and endpoint, called directly: selection, fragments,
/// directives, variables, nulls, errors in the response shape, and the auth answers.
@Suite struct DemoExecutorTests {
    let api: DemoFixture.Endpoint

    init() throws { api = try DemoFixture.Endpoint() }

    @Test func aliasesAndTypenameAreAnsweredUnderTheirResponseKeys() throws {
        let (status, body) = try api.post(
            #"{ a: track(id: "1") { __typename title } b: track(id: 4) { name: title } }"#)
        #expect(status == 200)
        #expect(body == ["data": ["a": ["__typename": "Track", "title": "Night Drive"], "b": ["name": "Blue Hour"]]])
    }

    @Test(arguments: [true, false])
    func skipAndIncludeFollowTheirVariables(flag: Bool) throws {
        let (_, body) = try api.post(
            #"query Q($on: Boolean!) { track(id: "1") { id title @include(if: $on) duration @skip(if: $on) } }"#,
            variables: ["on": .bool(flag)])
        let keys = body["data"]?["track"]?.objectValue?.keys
        #expect(keys == (flag ? ["id", "title"] : ["id", "duration"]))
    }

    @Test func fragmentsApplyByTypeConditionOnUnionsAndInterfaces() throws {
        let (_, body) = try api.post("""
            query { search(text: "blue") { __typename ...Named ... on Track { title } ... on Playable { duration }
              ... on Release { title kind } ... on Node { id } } }
            fragment Named on Artist { name }
            """)
        #expect(body["errors"] == nil)
        #expect(body["data"]?["search"] == [
            ["__typename": "Track", "title": "Blue Hour", "duration": 301_000, "id": "4"],
            ["__typename": "Release", "title": "Blue Hour Sessions", "kind": "EP", "id": "11"],
        ])
    }

    @Test func variableAndArgumentDefaultsApply() throws {
        let (_, one) = try api.post(#"query S($first: Int = 1) { search(text: "l", first: $first) { __typename } }"#)
        #expect(one["data"]?["search"]?.arrayValue?.count == 1)
        let (_, all) = try api.post(#"{ search(text: "l") { __typename } }"#)
        let kinds = Set((all["data"]?["search"]?.arrayValue ?? []).compactMap { $0["__typename"]?.stringValue })
        #expect(kinds == ["Track", "Artist", "Release"], "kinds defaults to every kind, first to 10")
        let (_, artists) = try api.post(#"query S($k: [SearchKind!]) { search(text: "l", kinds: $k) { __typename } }"#,
                                        variables: ["k": "ARTIST"])
        #expect(artists["data"]?["search"] == [["__typename": "Artist"], ["__typename": "Artist"]],
                "a single value is coerced to a list")
    }

    @Test func aMissingObjectIsNullWithoutAnError() throws {
        let (status, body) = try api.post(#"{ track(id: "999") { id } playlist(id: "nope") { id } }"#)
        #expect(status == 200)
        #expect(body == ["data": ["track": nil, "playlist": nil]])
    }

    @Test func aNullInANonNullFieldMakesTheNearestNullableParentNull() throws {
        var catalog = ExampleCatalog.standard
        catalog.tracks.append(.init(id: "9", title: "Orphan", durationMs: 1, trackNumber: 1, explicit: false,
                                    playCount: 0, artistIDs: [], releaseID: "gone", genres: []))
        let broken = try DemoFixture.Endpoint(catalog: catalog)
        let (status, body) = try broken.post("""
            {
              ok: track(id: "1") { id }
              track(id: "9") { id release { id } }
            }
            """)
        #expect(status == 200)
        #expect(body["data"] == ["ok": ["id": "1"], "track": nil])
        #expect(body["errors"] == [[
            "message": "Cannot return null for non-nullable field Track.release.",
            "locations": [["line": 3, "column": 23]], "path": ["track", "release"],
        ]])
    }

    @Test func aFieldErrorHasItsMessageLocationPathAndCode() throws {
        let (status, body) = try api.post(#"{ track(id: "1") { title isLiked } }"#, token: nil)
        #expect(status == 200)
        #expect(body["data"] == ["track": nil])
        let error = try #require(body["errors"]?[0])
        #expect(error["path"] == ["track", "isLiked"])
        #expect(error["locations"] == [["line": 1, "column": 26]])
        #expect(error["extensions"]?["code"] == "UNAUTHENTICATED")
        let (_, me) = try api.post("{ me { id } }", token: nil)
        #expect(me["data"] == .null, "me is non-null: the error reaches the root")
        #expect(me["errors"]?[0]?["path"] == ["me"])
    }

    @Test(arguments: ["old", "nobody-issued-this"])
    func aRefusedTokenGetsUNAUTHENTICATEDWithoutData(token: String) throws {
        let (status, body) = try api.post(#"{ track(id: "1") { id } }"#, token: token)
        #expect(status == 200)
        #expect(body["data"] == nil)
        #expect(body["errors"]?[0]?["extensions"]?["code"] == "UNAUTHENTICATED")
    }

    @Test func mutationsNeedASignedInListenerAndRunInOrder() throws {
        let text = #"mutation { a: likeTrack(input: {trackID: "2"}) { likedCount } "#
            + #"b: likeTrack(input: {trackID: "3"}) { likedCount } }"#
        let (_, anonymous) = try api.post(text, token: nil)
        #expect(anonymous["errors"]?[0]?["extensions"]?["code"] == "UNAUTHENTICATED")
        #expect(api.catalog.value.listener.likes.count == 2)
        let (_, body) = try api.post(text)
        #expect(body == ["data": ["a": ["likedCount": 3], "b": ["likedCount": 4]]])
        let (_, made) = try api.post(#"mutation { createPlaylist(input: {name: " Mix "}) { name isPublic } }"#)
        #expect(made["data"] == ["createPlaylist": ["name": "Mix", "isPublic": false]], "input-field defaults apply")
        let (_, unknown) = try api.post(#"mutation { likeTrack(input: {trackID: "404"}) { likedCount } }"#)
        #expect(unknown["data"] == .null)
        #expect(unknown["errors"]?[0]?["extensions"]?["code"] == "BAD_USER_INPUT")
    }

    @Test(arguments: [
        ("{ track(id: \"1\") { id }", "GRAPHQL_PARSE_FAILED", "Syntax Error: Expected Name, found <EOF>."),
        ("{ track(id: \"1\") { nope } }", "GRAPHQL_VALIDATION_FAILED",
         "Cannot query field \"nope\" on type \"Track\"."),
        ("query T($id: ID!) { track(id: $id) { id } }", "BAD_USER_INPUT",
         "Variable \"$id\" of required type \"ID!\" was not provided."),
        ("query A { me { id } } query B { me { id } }", "BAD_USER_INPUT",
         "Must provide operation name if query contains multiple operations."),
    ])
    func aRequestThatCannotRunIsA400WithTheReason(query: String, code: String, message: String) throws {
        let (status, body) = try api.post(query)
        #expect(status == 400)
        #expect(body["data"] == nil)
        #expect(body["errors"]?[0]?["extensions"]?["code"]?.stringValue == code)
        #expect(DemoFixture.messages(body) == [message])
    }

    @Test func badVariablesAreNamed() throws {
        let (status, body) = try api.post("query T($id: ID!) { track(id: $id) { id } }", variables: ["id": true])
        #expect(status == 400)
        #expect(DemoFixture.messages(body).first?.contains("variable \"$id\"") == true)
        let (_, input) = try api.post("mutation L($input: LikeTrackInput!) { likeTrack(input: $input) { likedCount } }",
                                      variables: ["input": ["trackID": "1", "bogus": 1]])
        #expect(DemoFixture.messages(input) == [
            "Field \"bogus\" is not defined by type \"LikeTrackInput\" (variable \"$input\")."])
        let (_, named) = try api.post("query A { me { id } }", operationName: "B")
        #expect(DemoFixture.messages(named) == ["Unknown operation named \"B\"."])
    }

    @Test func queriesComeByGETAndMutationsDoNot() throws {
        func get(_ query: String) throws -> (status: Int, body: JSONValue) {
            let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return try api.send(LoopbackRequest(method: "GET", target: "/graphql?query=\(encoded)",
                                                headers: ["Authorization": "Bearer live"]))
        }
        #expect(try get(#"{ track(id: "1") { title } }"#).body == ["data": ["track": ["title": "Night Drive"]]])
        let mutation = try get(#"mutation { unlikeTrack(trackID: "1") { likedCount } }"#)
        #expect(mutation.status == 405)
        #expect(api.catalog.value.isLiked("1"), "nothing changed")
    }

    @Test func bodiesThatAreNotGraphQLRequestsAreRefusedClearly() throws {
        let notJSON = try api.send(LoopbackRequest(method: "POST", target: "/graphql",
                                                   headers: ["Content-Type": "application/json"], body: Data("{".utf8)))
        #expect(notJSON.status == 400)
        #expect(DemoFixture.messages(notJSON.body).first?.contains("JSON object") == true)
        let text = try api.send(LoopbackRequest(method: "POST", target: "/graphql",
                                                headers: ["Content-Type": "text/plain"],
                                                body: Data("{ me { id } }".utf8)))
        #expect(text.status == 415)
        let noMap = try api.send(LoopbackRequest(
            method: "POST", target: "/graphql", headers: ["Content-Type": "multipart/form-data; boundary=b"],
            body: Data(("--b\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n"
                        + "{\"query\":\"{ me { id } }\"}\r\n--b--\r\n").utf8)))
        #expect(noMap.status == 400)
        #expect(DemoFixture.messages(noMap.body).first?.contains("\"map\" part") == true)
        let cut = try api.send(LoopbackRequest(
            method: "POST", target: "/graphql", headers: ["Content-Type": "multipart/form-data; boundary=b"],
            body: Data("--b\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n{".utf8)))
        #expect(cut.status == 400)
    }
}
