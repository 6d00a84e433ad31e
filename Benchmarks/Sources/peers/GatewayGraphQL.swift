import GraphQLLanguage

/// Gateway's GraphQL layer (`GraphQLLanguage`) as the benchmarks drive it.
enum GatewayGraphQL {
    static let peer = GraphQLPeer(
        name: "Gateway (GraphQLLanguage)",
        prepareParse: { text, isSchema in
            let bytes = Array(text.utf8)
            let limits: Limits = isSchema ? .schemas : .operations
            _ = try Parser.parse(Source(bytes: bytes), limits: limits)
            return {
                (try? Parser.parse(Source(bytes: bytes), limits: limits))?.definitions.count ?? -1
            }
        },
        preparePrint: { text, isSchema in
            let document = try Parser.parse(Source(text), limits: isSchema ? .schemas : .operations)
            return { Printer.printedBytes(document).count }
        },
        prepareValidate: { schemaText, operationText in
            let built = Schema.build(sources: [Source(schemaText, name: "schema.graphql")], options: .lenient)
            guard let schema = built.schema else {
                throw PeerFailure(
                    "GraphQLLanguage did not build the schema: \(built.errors.first?.description ?? "no error")")
            }
            let document = try Parser.parse(Source(operationText))
            let validator = Validator(schema: schema)
            let errors = validator.validate(document)
            guard errors.isEmpty else {
                throw PeerFailure("GraphQLLanguage found the operation invalid: \(errors[0].description)")
            }
            return { validator.validate(document).count + 1 }
        }
    )
}
