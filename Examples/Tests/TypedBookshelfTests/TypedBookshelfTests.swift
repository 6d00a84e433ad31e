import Foundation
import Gateway
import GatewayTesting
import Testing
import TypedBookshelf

/// The typed tour: generated operation types over a `StubTransport`, which matches them by type.
@Suite struct TypedBookshelfTests {
    let stub = StubTransport()
    let shelf: TypedBookshelf

    init() {
        shelf = TypedBookshelf(provider: Provider(baseURL: URL(string: "https://books.example.com/api/")!, transport: stub))
    }

    @Test func aGeneratedQuerySendsItsTypedVariablesAndDecodesItsData() async throws {
        stub.onGraphQL(BooksByQuery.self, variables: ["author": "Ursula K. Le Guin"], reply: .graphQL(data: [
            "books": [["id": "1", "title": "The Dispossessed", "author": "Ursula K. Le Guin", "year": 1974]],
        ]))
        let books = try await shelf.books(by: "Ursula K. Le Guin", first: 2)
        #expect(books.map(\.title) == ["The Dispossessed"])
        #expect(books.first?.year == 1974)
        #expect(stub.graphQLRequests.first?.variables == ["author": "Ursula K. Le Guin", "first": 2])
        #expect(stub.graphQLRequests.first?.query == BooksByQuery.definition.text)
    }

    @Test func aGeneratedMutationSendsItsInputObject() async throws {
        stub.onGraphQL(AddBookMutation.self, reply: .graphQL(data: [
            "addBook": ["id": "9", "title": "Beloved", "author": "Toni Morrison", "year": nil],
        ]))
        let book = try await shelf.add(title: "Beloved", author: "Toni Morrison", year: nil)
        #expect(book.id == "9")
        #expect(book.year == nil)
        // A nil optional is left out, so that the server applies its default.
        #expect(stub.graphQLRequests.first?.variables["input"] == ["title": "Beloved", "author": "Toni Morrison"])
    }
}
