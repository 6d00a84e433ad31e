// The examples of Sources/Gateway/Encoding and of the encoders' factories.
import Foundation
import Gateway
import GraphQLLanguage

// GraphQLPersistedQuery
func persistedQueries(config: inout Provider.Configuration) {
    config.graphQL.persistedQueries = .enabled                    // hashed queries by POST
    config.graphQL.persistedQueries = .enabled(usingGET: true)    // hashed queries by GET (CDN-cacheable)
}

// GraphQLUpload
func graphQLUpload(provider: Provider, operations: OperationStore, imageURL: URL) async throws {
    let cover = GraphQLUpload.file(imageURL, contentType: "image/png")
    let uploaded = try await provider.fetch(operations["UploadPlaylistCover"], variables: ["playlistID": "p1"],
                                            uploads: ["image": cover], as: JSONValue.self)
    _ = uploaded
}

// MultipartForm
func multipartForm(photoURL: URL) {
    var form = MultipartForm()
    form.append(.text("title", "Holiday"))
    form.append(.file("photo", url: photoURL, contentType: "image/jpeg"))
    let upload = Endpoint<Empty>.post("photos", body: form, encoder: .multipart)
    _ = upload
}

// ParameterEncoder
enum ParameterEncoderExample {
    struct PlainTextEncoder: ParameterEncoder {
        func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                    context: ParameterEncodingContext) throws {
            guard let text = parameters as? String else {
                throw GatewayError(.encoding, "plain-text parameters must be a String")
            }
            request.body = .data(Data(text.utf8))
            request.headers["Content-Type"] = "text/plain; charset=utf-8"
        }
    }
}

// RawBodyEncoding
func rawBody(jsonText: String) -> Endpoint<Data> {
    Endpoint<Data>.post("events", body: jsonText, encoder: .raw(contentType: "application/json"))
}

// Endpoint+Factories
func repeatedArrays() -> Endpoint<[Track]> {
    Endpoint<[Track]>.get("tracks", parameters: ["ids": [1, 2]], encoder: .query(arrays: .repeated))
}
