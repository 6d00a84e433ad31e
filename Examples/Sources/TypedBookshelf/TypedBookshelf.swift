import Gateway

/// The tour's GraphQL calls through generated types: `GatewayCodegenPlugin` turns `Queries/`
/// into `BooksByQuery`, `AddBookMutation`, `BookFields` and `NewBook` on every build, so an
/// operation is a type, its variables are checked by the compiler and its data needs no
/// hand-written model.
public struct TypedBookshelf: Sendable {
    public let provider: Provider

    public init(provider: Provider) {
        self.provider = provider
    }

    /// The `BooksBy` query, typed.
    public func books(by author: String, first: Int) async throws -> [BookFields] {
        let response = try await provider.fetch(BooksByQuery(author: author, first: first))
        return response.data.books.map(\.bookFields)
    }

    /// The `AddBook` mutation, typed: its input object is a generated struct.
    public func add(title: String, author: String, year: Int?) async throws -> BookFields {
        let response = try await provider.fetch(AddBookMutation(input: NewBook(title: title, author: author, year: year)))
        return response.data.addBook.bookFields
    }
}
