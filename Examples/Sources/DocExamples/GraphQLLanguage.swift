// The examples of Sources/GraphQLLanguage.
import GraphQLLanguage

// Parser
func parse(text: String, sdl: [UInt8]) throws {
    let document = try Parser.parse(Source(text, name: "Queries/Hero.graphql"))
    let schema = try Parser.parse(Source(bytes: sdl, name: "schema.graphql"), limits: .schemas)
    _ = (document, schema)
}

// Normalizer+Source
func normalizeSource(fileText: String) throws {
    let key = try Normalizer.normalize(Source(fileText, name: "Queries/GetTrack.graphql"))
    print(key.text)
    // query GetTrack($id:ID!){track(id:$id){...TrackFields}}fragment TrackFields on Track{id title}
}

// Normalizer
func normalizeDocument(document: Document) throws {
    let normalized = try Normalizer.normalize(document, operationName: "GetTrack")
    print(normalized.text)
    // query GetTrack($id:ID!){track(id:$id){...TrackFields}}fragment TrackFields on Track{id title}
    print(normalized.prettyText)  // the same operation and fragments in ``Printer``'s pretty form
}

// Printer
func reprint(fileText: String) throws {
    let text = Printer.print(try Parser.parse(Source(fileText)))
    _ = text
}

// Schema
func buildSchema(sdl: String) throws {
    let document = try Parser.parse(Source(sdl, name: "Schemas/music.graphql"), limits: .schemas)
    let result = Schema.build([document])
    guard let schema = result.schema else { print(result.diagnostics); return }
    _ = schema
}

// QueryFileCheck
func queryFileCheck(files: [Source], schema: Schema) {
    let check = QueryFileCheck(sources: files, schema: schema)
    check.diagnostics.forEach { print($0.rendered()) }
    print(check.summary)  // 11 files, 10 operations, 3 fragments: 0 errors
}

// Validator
func validate(document: Document, schema: Schema) {
    let validator = Validator(schema: schema)
    for diagnostic in validator.validate(document) { print(diagnostic.rendered()) }
}

// Parser.parse(_:limits:executableLimits:)
func parseWithExecutableLimits() throws {
    let document = try Parser.parse(Source("scalar Date\n{ today }"), limits: .schemas,
                                    executableLimits: .operations)
    _ = document
}

// Schema.possibleTypes(of:)
func possibleTypes() {
    let sdl = "type Query { search: [Result!]! } union Result = Track | Artist "
        + "type Track { title: String! } type Artist { name: String! }"
    if let schema = Schema.build(sources: [Source(sdl)]).schema, let result = schema.type(named: "Result") {
        print(schema.possibleTypes(of: result).map(\.name))  // ["Track", "Artist"]
    }
}
