import Foundation
import Gateway
import GatewaySQLite

/// A book, as the bookshelf API answers it over REST and GraphQL.
public struct Book: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var author: String
    public var year: Int?
}

/// The body of the API's error answers.
public struct APIProblem: Decodable, Sendable, Equatable {
    public var message: String
}

/// The README's tour: a small app's client for an API that speaks REST and GraphQL, through one
/// `Provider` with refresh-token auth and an on-disk cache.
public final class Bookshelf: Sendable {
    public let provider: Provider
    let operations: OperationStore

    /// A client for the API at `baseURL`, keeping its tokens and cache in `folder`.
    ///
    /// - Parameters:
    ///   - baseURL: the API's base URL (REST paths and `graphql` are relative to it).
    ///   - folder: where the token file and the cache database live.
    ///   - queries: the folder of `.graphql` files.
    ///   - transport: `URLSessionTransport()` in the app, a `StubTransport` in tests.
    public init(baseURL: URL, folder: URL, queries: URL, transport: any Transport = URLSessionTransport()) throws {
        let cacheStore = try SQLiteCacheStore(path: folder.appendingPathComponent("cache.sqlite").path)
        provider = Provider(baseURL: baseURL, transport: transport) { config in
            config.tokens = FileTokenStore(directory: folder.appendingPathComponent("tokens"))
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
            config.cache = ResponseCache(store: cacheStore, defaultPolicy: .cacheFirst)
        }
        operations = try OperationStore(directory: queries)
    }

    /// Signs in: the login endpoint is sent without a token, and its OAuth 2 answer is saved
    /// as the credential that every later request carries (and that is refreshed when it expires).
    public func logIn(username: String, password: String) async throws {
        struct Login: Encodable, Sendable { var username: String; var password: String }
        let answer = try await provider.value(
            Endpoint<OAuthTokenResponse>.post("auth/login", body: Login(username: username, password: password))
                .withoutAuthentication()
                .apiError(APIProblem.self))
        try await provider.tokenCoordinator?.save(answer.credential(subject: username))
    }

    /// `GET books/{id}` over REST.
    public func book(id: String) async throws -> Book {
        try await provider.value(Endpoint<Book>.get("books/\(id)").apiError(APIProblem.self))
    }

    /// The `BooksBy` query from `Queries/BooksBy.graphql`, answered from the cache when it can be.
    public func books(by author: String, first: Int) async throws -> [Book] {
        struct BooksBy: Decodable, Sendable { var books: [Book] }
        let response = try await provider.fetch(
            operations["BooksBy"], variables: ["author": author, "first": first], as: BooksBy.self)
        return response.data.books
    }

    /// The `AddBook` mutation from `Queries/AddBook.graphql`, with an `Encodable` input.
    public func add(_ book: NewBook) async throws -> Book {
        struct AddBook: Decodable, Sendable { var addBook: Book }
        let response = try await provider.fetch(operations["AddBook"], variables: ["input": book], as: AddBook.self)
        return response.data.addBook
    }
}

/// The `NewBook` input of the schema.
public struct NewBook: Encodable, Sendable {
    public var title: String
    public var author: String
    public var year: Int?

    public init(title: String, author: String, year: Int? = nil) {
        self.title = title
        self.author = author
        self.year = year
    }
}
