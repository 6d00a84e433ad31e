import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Operation types shaped like `gateway generate`'s, sent through `Provider.fetch`.
@Suite struct GeneratedOperationTests {
    @Test func aGeneratedQueryDecodesIntoItsDataAndSendsItsText() async throws {
        let stub = StubTransport()
        stub.onGraphQL("Me", reply: .graphQL(data: ["me": ["id": "u1", "displayName": "Ada", "plan": "FREE"]]))
        let me = try await makeProvider(stub).fetch(MeQuery())
        #expect(me.data.me.displayName == "Ada")
        #expect(me.data.me.country == nil)
        let sent = try #require(stub.graphQLRequests.first)
        #expect(sent.query == MeQuery.definition.text)
        #expect(sent.operationName == "Me")
        #expect(sent.variables.isEmpty)
        #expect(me.request?.method == .post)
    }

    @Test func theDefinitionsOfTheFixturesAreTrueToTheirFiles() throws {
        let store = try GraphQLFixtures.store()
        for definition in GeneratedFixtures.definitions {
            let name = try #require(definition.name)
            let loaded = try store[name]
            #expect(definition.normalizedText == loaded.normalizedText, "\(name)")
            #expect(definition.textHash == SHA256.hexDigest(definition.text), "\(name)")
            #expect(definition.normalizedTextHash == SHA256.hexDigest(definition.normalizedText), "\(name)")
            let parsed = GraphQLOperation(definition: definition)
            #expect(parsed.variableNames == loaded.variableNames, "\(name)")
            #expect(parsed.kind == loaded.kind)
        }
    }

    @Test func theCacheKeyIsTheFileLoadedOperationsKey() throws {
        let store = try GraphQLFixtures.store()
        let partition = CachePartition.anonymous
        func key<Value>(_ request: GraphQLRequest<Value>) throws -> CacheKey {
            try request.cacheKey(baseURL: testBaseURL, partition: partition)
        }
        let generated = try key(GraphQLRequest(GetTrackQuery(id: "t1")))
        let loaded = try key(GraphQLRequest<JSONValue>(operation: store["GetTrack"], variables: ["id": "t1"]))
        #expect(generated == loaded)
        #expect(generated.components == loaded.components)
        #expect(try key(GraphQLRequest(GetTrackQuery(id: "t2"))) != loaded)
        // Declared defaults ($first: Int = 10) fill a variable left out, as for the loaded operation.
        let search = try key(GraphQLRequest(SearchQuery(text: "night", kinds: [.track, .release])))
        let loadedSearch = try key(GraphQLRequest<JSONValue>(
            operation: store["Search"], variables: ["text": "night", "kinds": ["TRACK", "RELEASE"]]))
        #expect(search == loadedSearch)
    }

    @Test func aGeneratedQueryIsAnsweredFromTheEntryOfTheFileLoadedOperation() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: GeneratedFixtures.track("t1", title: "One")))
        let loaded = try await setup.provider.fetch(GraphQLFixtures.store()["GetTrack"], variables: ["id": "t1"],
                                                    as: JSONValue.self)
        let generated = try await setup.provider.fetch(GetTrackQuery(id: "t1"))
        #expect(loaded.cacheOutcome == .miss)
        #expect(generated.cacheOutcome == .hit)
        #expect(generated.data.track?.title == "One")
        #expect(setup.networkCalls == 1)

        // And the other way round, for an operation with a declared default.
        setup.stub.onGraphQL("Search", reply: .graphQL(data: ["search": []]))
        let first = try await setup.provider.fetch(SearchQuery(text: "night"))
        let again = try await setup.provider.fetch(GraphQLFixtures.store()["Search"], variables: ["text": "night"],
                                                   as: JSONValue.self)
        #expect(first.cacheOutcome == .miss && again.cacheOutcome == .hit)
        #expect(setup.networkCalls == 2)
    }

    @Test func aNilOptionalIsLeftOutAndADeclaredDefaultFillsIt() async throws {
        let stub = StubTransport()
        stub.onGraphQL("CreatePlaylist", reply: .graphQL(data: GeneratedFixtures.playlist))
        let provider = makeProvider(stub)
        let created = try await provider.fetch(CreatePlaylistMutation(name: "Morning"))
        _ = try await provider.fetch(CreatePlaylistMutation(name: "Night", description: "Late", isPublic: true))
        #expect(created.data.createPlaylist.name == "Morning")
        let sent = stub.graphQLRequests.map(\.variables)
        #expect(sent == [["name": "Morning", "isPublic": false],
                         ["name": "Night", "description": "Late", "isPublic": true]])
    }

    @Test func anInputObjectEncodesWithItsNilFieldsLeftOut() async throws {
        let stub = StubTransport()
        stub.onGraphQL("LikeTrack", reply: .graphQL(data: GeneratedFixtures.liked))
        let provider = makeProvider(stub)
        let liked = try await provider.fetch(LikeTrackMutation(input: LikeTrackInput(trackID: "t1")))
        _ = try await provider.fetch(LikeTrackMutation(input: LikeTrackInput(trackID: "t2", source: "radio")))
        #expect(liked.data.likeTrack.likedCount == 3)
        #expect(stub.graphQLRequests.map(\.variables) == [["input": ["trackID": "t1"]],
                                                          ["input": ["trackID": "t2", "source": "radio"]]])
    }

    @Test func aMutationIsNotRetriedOnA503ButAQueryIs() async throws {
        let stub = StubTransport()
        stub.onGraphQL("LikeTrack", reply: .status(503), .graphQL(data: GeneratedFixtures.liked))
        stub.onGraphQL("Me", reply: .status(503), .graphQL(data: ["me": ["id": "u1", "displayName": "Ada",
                                                                       "plan": "FREE"]]))
        let provider = makeProvider(stub) { config in config.retryPolicy = GraphQLStubTests.retrying() }
        let error = try await #require(throws: GatewayError.self) {
            try await provider.fetch(LikeTrackMutation(input: LikeTrackInput(trackID: "t1")))
        }
        #expect(error.kind == .status)
        #expect(stub.requests(matching: .graphQL("LikeTrack")).count == 1)
        let me = try await provider.fetch(MeQuery())
        #expect(me.metrics.attempts == 2)

        // With an idempotency key, it is.
        let keyedStub = StubTransport()
        keyedStub.onGraphQL("LikeTrack", reply: .status(503), .graphQL(data: GeneratedFixtures.liked))
        var options = GraphQLRequestOptions()
        options.idempotencyKey = "like-t1-0001"
        let keyed = try await makeProvider(keyedStub) { config in config.retryPolicy = GraphQLStubTests.retrying() }
            .fetch(LikeTrackMutation(input: LikeTrackInput(trackID: "t1")), options: options)
        #expect(keyed.metrics.attempts == 2)
        #expect(keyedStub.requests.map { $0.headers["Idempotency-Key"] } == ["like-t1-0001", "like-t1-0001"])
    }

    @Test func persistedQueriesSendTheDefinitionsHash() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let provider = GraphQLEndToEndTests.provider(server) { config in config.graphQL.persistedQueries = .enabled }
        let first = try await provider.fetch(GetTrackQuery(id: "t1"))
        let second = try await provider.fetch(GetTrackQuery(id: "t2"))
        #expect(first.persistedQuery == .registered)
        #expect(second.persistedQuery == .hit)
        #expect(first.data.track?.id != nil)
        #expect(second.data.track?.__typename == "Track")
        let received = server.received.value
        #expect(received.map(\.persistedQueryHash) == Array(repeating: GetTrackQuery.definition.textHash, count: 3))
        #expect(received.map(\.query) == [nil, GetTrackQuery.definition.text, nil])
        #expect(received.map(\.variables) == [["id": "t1"], ["id": "t1"], ["id": "t2"]])
    }

    @Test func aGeneratedOperationSendsItsOwnTextEvenWhenNormalizedTextIsAsked() async throws {
        let stub = StubTransport()
        stub.onGraphQL("GetTrack", reply: .graphQL(data: GeneratedFixtures.track("t1", title: "One")))
        let provider = makeProvider(stub) { config in config.graphQL.sendsNormalizedText = true }
        _ = try await provider.fetch(GetTrackQuery(id: "t1"))
        #expect(stub.graphQLRequests.first?.query == GetTrackQuery.definition.text)
    }

    @Test func watchGivesTheCachedAnswerThenTheFreshOne() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: GeneratedFixtures.track("t1", title: "One")),
                             .graphQL(data: GeneratedFixtures.track("t1", title: "Two")))
        _ = try await setup.provider.fetch(GetTrackQuery(id: "t1"))
        var titles: [String?] = []
        var outcomes: [CacheOutcome] = []
        for try await track in setup.provider.watch(GetTrackQuery(id: "t1")) {
            titles.append(track.data.track?.title)
            outcomes.append(track.cacheOutcome)
            if titles.count == 2 { break }
        }
        #expect(titles == ["One", "Two"])
        #expect(outcomes.first == .hit)
        #expect(setup.networkCalls == 2)
    }

    @Test func aTaskAndARequestMadeInAdvanceGiveTheSameAnswer() async throws {
        let stub = StubTransport()
        stub.onGraphQL("GetTrack", reply: .graphQL(data: GeneratedFixtures.track("t1", title: "One")))
        let provider = makeProvider(stub)
        let viaTask = try await provider.task(GetTrackQuery(id: "t1")).value
        let request = try GraphQLRequest(GetTrackQuery(id: "t1"))
        #expect(request.name == "query GetTrack")
        #expect(request.variables == ["id": "t1"])
        let viaRequest = try await provider.send(request)
        #expect(viaTask.data.track?.title == "One" && viaRequest.data.track?.title == "One")
        #expect(stub.requests.count == 2)
        #expect(Set(stub.requests.map(\.body)).count == 1)
    }

    @Test func cachePolicyCacheOnlyMissesClearly() async throws {
        let setup = CachedProvider()
        let error = try await #require(throws: GatewayError.self) {
            try await setup.provider.fetch(GetTrackQuery(id: "t1"), cachePolicy: .cacheOnly)
        }
        #expect(error.kind == .cacheMiss)
        #expect(setup.networkCalls == 0)
    }

    @Test func variablesEncodeWithTheProvidersJSONEncoding() async throws {
        let stub = StubTransport()
        stub.onGraphQL("PlaysSince", reply: .graphQL(data: ["plays": 7]))
        let provider = makeProvider(stub) { config in config.jsonEncoding.dates = .iso8601 }
        let plays = try await provider.fetch(PlaysSinceQuery(since: Date(timeIntervalSince1970: 0)))
        #expect(plays.data.plays == 7)
        #expect(stub.graphQLRequests.first?.variables == ["since": "1970-01-01T00:00:00Z"])
    }

    @Test func variablesThatDoNotEncodeSendNothing() async throws {
        let stub = StubTransport()
        let provider = makeProvider(stub)
        let error = try await #require(throws: GatewayError.self) {
            try await provider.fetch(RatingQuery(score: .nan))
        }
        #expect(error.kind == .invalidVariables)
        #expect(error.endpoint == "query Rating")
        let failed = try await #require(throws: GatewayError.self) {
            try await provider.task(RatingQuery(score: .nan)).value
        }
        #expect(failed.kind == .invalidVariables)
        var ended: (any Error)?
        do {
            for try await _ in provider.watch(RatingQuery(score: .infinity)) {}
        } catch { ended = error }
        #expect((ended as? GatewayError)?.kind == .invalidVariables)
        #expect(stub.requests.isEmpty)
    }

    @Test func anAnonymousGeneratedQueryIsSentWithoutAnOperationName() async throws {
        let stub = StubTransport()
        stub.onGraphQL(AnonymousMeQuery.self, reply: .graphQL(data: ["me": ["id": "u1"]]))
        let response = try await makeProvider(stub).fetch(AnonymousMeQuery())
        #expect(response.data.me.id == "u1")
        let sent = try #require(stub.graphQLRequests.first)
        #expect(sent.operationName == nil)
        #expect(sent.query == AnonymousMeQuery.definition.text)
        #expect(AnonymousMeQuery.operation.description == "anonymous query")
    }

    @Test func aSubscriptionIsRefusedAndSendsNothing() async throws {
        let stub = StubTransport()
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).fetch(PlaysSubscription())
        }
        #expect(error.kind == .invalidRequest)
        #expect(stub.requests.isEmpty)
    }
}
