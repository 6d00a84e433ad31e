import Foundation
import Gateway
import GraphQLLanguage

#if canImport(Testing)
import Testing

/// Checks that a hand-written `Decodable` model decodes every `data` response the schema allows for
/// an operation, recording each problem as a test issue at the call, with the model's property
/// path and the field the query selects there (see ``GraphQLModelCheck``).
///
/// ```swift
/// @Test func meDecodes() throws {
///     let schema = try OperationStore.schema(at: URL(fileURLWithPath: "Schemas/music.graphql"))
///     let operations = try OperationStore(directory: URL(fileURLWithPath: "Queries"), schema: schema)
///     try expectModel(Me.self, decodes: operations["Me"])
/// }
/// ```
///
/// - Parameters:
///   - model: What `data` decodes as in the app.
///   - operation: The operation, usually from an `OperationStore`.
///   - schema: The schema; `nil` takes the one the operation was loaded with.
///   - decoder: The decoder the app uses: `provider.configuration.jsonDecoding.makeDecoder()` for a
///     provider's settings.
///   - scalars: Values for custom scalars, by scalar name, such as `["Milliseconds": 215_000]`;
///     others hold a string.
///   - sourceLocation: Where to record the problems.
/// - Returns: The problems recorded; empty when the model decodes every response.
@discardableResult
public func expectModel<Model: Decodable>(
    _ model: Model.Type, decodes operation: GraphQLOperation, schema: Schema? = nil,
    decoder: JSONDecoder = JSONDecoder(), scalars: [String: JSONValue] = [:],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [GraphQLModelCheck.Problem] {
    let check: GraphQLModelCheck
    do {
        check = try GraphQLModelCheck(operation, schema: schema, scalars: scalars)
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return []
    }
    return record(check, model, decoder: decoder, sourceLocation: sourceLocation)
}

/// Checks that a hand-written `Decodable` model decodes every `data` response the schema allows for
/// the operation in `text`, recording each problem as a test issue at the call.
///
/// ```swift
/// @Test func meDecodes() throws {
///     let schema = try OperationStore.schema(at: URL(fileURLWithPath: "Schemas/music.graphql"))
///     expectModel(Me.self, decodes: "query Me { me { id displayName country plan } }", schema: schema)
/// }
/// ```
///
/// - Parameters:
///   - model: What `data` decodes as in the app.
///   - text: GraphQL text holding the operation and the fragments it uses.
///   - operationName: The operation, when the text holds several.
///   - schema: The schema the operation is validated against and its responses follow.
///   - decoder: The decoder the app uses.
///   - scalars: Values for custom scalars, by scalar name.
///   - sourceLocation: Where to record the problems, and a text that does not parse or validate.
/// - Returns: The problems recorded; empty when the model decodes every response.
@discardableResult
public func expectModel<Model: Decodable>(
    _ model: Model.Type, decodes text: String, operationName: String? = nil, schema: Schema,
    decoder: JSONDecoder = JSONDecoder(), scalars: [String: JSONValue] = [:],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [GraphQLModelCheck.Problem] {
    let operation: GraphQLOperation
    do {
        operation = try GraphQLOperation(text, operationName: operationName, schema: schema)
    } catch {
        Issue.record(Comment(rawValue: "\(error)"), sourceLocation: sourceLocation)
        return []
    }
    return expectModel(model, decodes: operation, schema: schema, decoder: decoder, scalars: scalars,
                       sourceLocation: sourceLocation)
}

/// Runs a check and records its problems, and a selection too large to check whole.
private func record<Model: Decodable>(
    _ check: GraphQLModelCheck, _ model: Model.Type, decoder: JSONDecoder, sourceLocation: Testing.SourceLocation
) -> [GraphQLModelCheck.Problem] {
    if let truncation = check.truncation {
        Issue.record(Comment(rawValue: "\(check.operation): \(truncation)"), sourceLocation: sourceLocation)
    }
    let problems = check.problems(decoding: model, decoder: decoder)
    for problem in problems {
        Issue.record(Comment(rawValue: problem.description), sourceLocation: sourceLocation)
    }
    return problems
}
#endif
