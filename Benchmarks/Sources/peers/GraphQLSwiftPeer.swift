import GraphQL

/// GraphQLSwift's `GraphQL` 4.3.0 as the benchmarks drive it.
enum GraphQLSwiftPeer {
    static let peer = GraphQLPeer(
        name: "GraphQLSwift 4.3.0",
        prepareParse: { text, _ in
            let source = Source(body: text)
            _ = try parse(source: source)
            return { (try? parse(source: source))?.definitions.count ?? -1 }
        },
        preparePrint: { text, _ in
            let document = try parse(source: Source(body: text))
            return { print(ast: document).utf8.count }
        },
        prepareValidate: { schemaText, operationText in
            let schema = try buildSchema(source: schemaText, assumeValidSDL: true)
            let document = try parse(source: Source(body: operationText))
            let errors = validate(schema: schema, ast: document)
            guard errors.isEmpty else {
                throw PeerFailure("GraphQLSwift found the operation invalid: \(errors[0].message)")
            }
            return { validate(schema: schema, ast: document).count + 1 }
        }
    )
}
