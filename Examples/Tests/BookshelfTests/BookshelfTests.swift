import Foundation
import Testing
import Gateway
import GatewayTesting
import Bookshelf

/// The README's testing tour: the bookshelf client over a `StubTransport`, REST and GraphQL
/// alike, and its query files checked against its schema.
@Suite struct BookshelfTests {
    let stub = StubTransport()
    let shelf: Bookshelf

    init() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookshelf-\(UUID().uuidString)")
        shelf = try Bookshelf(baseURL: URL(string: "https://books.example.com/api/")!, folder: folder,
                              queries: root.appendingPathComponent("Queries"), transport: stub)
        // Signed in, as after a login.
        try await shelf.provider.tokenCoordinator?.save(Credential(accessToken: "access-1", refreshToken: "refresh-1"))
    }

    @Test func aRESTCallDecodesTheBook() async throws {
        stub.on(.get, "books/7", reply: .json(#"{"id": "7", "title": "Kindred", "author": "Octavia E. Butler"}"#))
        let book = try await shelf.book(id: "7")
        #expect(book.title == "Kindred")
        #expect(stub.requests.map(\.url.path) == ["/api/books/7"])
        #expect(stub.requests.first?.request.headers["Authorization"] == "Bearer access-1")
    }

    @Test func aRESTErrorCarriesTheServersErrorBody() async throws {
        stub.on(.get, "books/0", reply: .json(#"{"message": "no book 0"}"#, status: 404))
        let error = await #expect(throws: GatewayError.self) { try await shelf.book(id: "0") }
        #expect(error?.apiError(as: APIProblem.self)?.message == "no book 0")
    }

    @Test func aGraphQLQuerySendsItsVariablesFromSwiftValues() async throws {
        stub.onGraphQL("BooksBy", variables: ["author": "Ursula K. Le Guin"], reply: .graphQL(data: [
            "books": [["id": "1", "title": "The Dispossessed", "author": "Ursula K. Le Guin", "year": 1974]],
        ]))
        let books = try await shelf.books(by: "Ursula K. Le Guin", first: 2)
        #expect(books.map(\.title) == ["The Dispossessed"])
        #expect(stub.graphQLRequests.first?.variables["first"] == 2)
    }

    @Test func aGraphQLMutationSendsItsEncodableInput() async throws {
        stub.onGraphQL("AddBook", reply: .graphQL(data: [
            "addBook": ["id": "9", "title": "Beloved", "author": "Toni Morrison", "year": 1987],
        ]))
        let book = try await shelf.add(NewBook(title: "Beloved", author: "Toni Morrison", year: 1987))
        #expect(book.id == "9")
        #expect(stub.graphQLRequests.first?.variables["input"] == ["title": "Beloved", "author": "Toni Morrison", "year": 1987])
    }

    @Test func loggingInSendsNoTokenAndSavesTheAnswer() async throws {
        try await shelf.provider.logout()
        stub.on(.post, "auth/login", reply: .json(#"{"access_token": "a-2", "refresh_token": "r-2", "expires_in": 3600}"#))
        stub.on(.get, "books/7", reply: .json(#"{"id": "7", "title": "Kindred", "author": "Octavia E. Butler"}"#))
        try await shelf.logIn(username: "ada", password: "secret")
        _ = try await shelf.book(id: "7")
        #expect(stub.requests.map { $0.request.headers["Authorization"] } == [nil, "Bearer a-2"])
        let saved = try await shelf.provider.tokenCoordinator?.credential()
        #expect(saved?.refreshToken == "r-2")
        #expect(saved?.subject == "ada")
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheRequestReplayed() async throws {
        stub.on(.get, "books/7", reply: .status(401), .json(#"{"id": "7", "title": "Kindred", "author": "Octavia E. Butler"}"#))
        stub.on(.post, "auth/refresh", reply: .json(#"{"access_token": "access-2", "refresh_token": "refresh-2"}"#))
        _ = try await shelf.book(id: "7")
        #expect(stub.requests.map(\.url.path) == ["/api/books/7", "/api/auth/refresh", "/api/books/7"])
        #expect(stub.requests.last?.request.headers["Authorization"] == "Bearer access-2")
    }

    @Test func queryFilesMatchTheSchema() {
        expectValidQueryFiles(in: "Queries", schema: "Schemas")
    }
}
