import Foundation
import Gateway
import Testing
import TypedBookshelf

/// The types that `GatewayCodegenPlugin` generated for this package on `swift build`, fetched
/// through a real `Provider` and `URLSessionTransport` from ariadne on 127.0.0.1, which serves
/// `Schemas/bookshelf.graphql` with fixed data (see `bookshelf_server.py`).
@Suite(.requiresAriadne) struct TypedBookshelfAgainstAriadneTests {
    let provider: Provider

    init() async throws {
        let server = try #require(try await AriadneBookshelf.shared.value)
        provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) { config in
            config.deadline = .seconds(20)
        }
    }

    @Test func theGeneratedQueryReturnsTypedDataThroughItsFragment() async throws {
        let response = try await provider.fetch(BooksByQuery(author: "Ursula K. Le Guin", first: 1))
        #expect(response.errors.isEmpty)
        let books = response.data.books.map(\.bookFields)
        #expect(books.map(\.id) == ["1"])
        #expect(books.first?.title == "The Dispossessed")
        #expect(books.first?.author == "Ursula K. Le Guin")
        #expect(books.first?.year == 1974)
    }

    @Test func aVariableLeftNilIsNotSentAndTheSchemaDefaultApplies() async throws {
        let response = try await provider.fetch(BooksByQuery())
        let books = response.data.books.map(\.bookFields)
        #expect(books.map(\.title) == ["The Dispossessed", "A Wizard of Earthsea", "Beloved", "Kindred"])
        #expect(books.last?.year == nil, "a null Int comes back as nil")
    }

    @Test func theGeneratedMutationSendsItsInputObjectAndReadsTheFragment() async throws {
        let input = NewBook(title: "Parable of the Sower", author: "Octavia E. Butler", year: 1993)
        let response = try await provider.fetch(AddBookMutation(input: input))
        #expect(response.errors.isEmpty)
        let added = response.data.addBook.bookFields
        #expect(added.id == "100")
        #expect(added.title == "Parable of the Sower")
        #expect(added.author == "Octavia E. Butler")
        #expect(added.year == 1993)
    }

    @Test func theTypedBookshelfWorksAgainstARealServer() async throws {
        let shelf = TypedBookshelf(provider: provider)
        #expect(try await shelf.books(by: "Toni Morrison", first: 5).map(\.title) == ["Beloved"])
        let added = try await shelf.add(title: "Sula", author: "Toni Morrison", year: nil)
        #expect(added.title == "Sula")
        #expect(added.year == nil, "a nil year is left out of the input, and the server answers null")
    }
}
