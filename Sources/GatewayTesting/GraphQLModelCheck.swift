import Foundation
import Gateway
import GraphQLLanguage

/// Checks a hand-written `Decodable` model against a GraphQL operation: it synthesizes the `data`
/// responses the schema allows for the operation's selection and decodes each into the model, so
/// that a model that would fail on a real response fails in a test instead.
///
/// The responses start from a base where every field is set, lists hold two items, enums hold their
/// first value and interfaces and unions their first object type; each further response changes one
/// thing: a nullable value is `null`, a list is empty, a field `@skip` or `@include` may leave out
/// is left out, an enum holds another value, an interface or union is another of its object types
/// (with `__typename` when the query selects it). Scalars hold a representative of their type
/// (`"text"`, `1`, `1.5`, `true`, the ID `"1"`); a custom scalar holds a string (an RFC 3339 time
/// when its `@specifiedBy` says so) unless ``scalars`` gives it a value. The number of responses
/// grows with the size of the selection, not with the number of combinations.
///
/// Each problem names the model's property path and the field the query selects there:
///
/// ```
/// GetTrack.track.artists[0].name: the query selects "name: String" (nullable) but the model's String is not optional
/// ```
///
/// From Swift Testing, `expectModel(_:decodes:schema:)` records each problem as an issue:
///
/// ```swift
/// @Test func getTrackDecodes() throws {
///     let schema = try OperationStore.schema(at: URL(fileURLWithPath: "Schemas/music.graphql"))
///     let operations = try OperationStore(directory: URL(fileURLWithPath: "Queries"), schema: schema)
///     try expectModel(GetTrack.self, decodes: operations["GetTrack"], scalars: ["Milliseconds": 215_000])
/// }
/// ```
///
/// and elsewhere ``problems(decoding:decoder:)`` returns them.
public struct GraphQLModelCheck: Sendable {
    /// The operation whose responses are synthesized.
    public let operation: GraphQLOperation
    /// The schema that says what the responses can hold.
    public let schema: Schema
    /// Values for custom scalars, by scalar name, such as `["Milliseconds": 215_000]`.
    public let scalars: [String: JSONValue]
    /// The selection laid out per object type.
    let selection: Selection
    /// The responses to synthesize, base response first.
    private(set) var plan: [Variation] = []
    /// Why the check covers only part of the selection, for a selection too large to check whole.
    public private(set) var truncation: String?

    /// Why a check cannot start: no schema, or an operation the schema does not allow.
    public struct SetupError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and how to fix it.
        public var description: String
    }

    /// A model that cannot decode a response the schema allows.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The model's property path, after the operation's name: `GetTrack.track.artists[0].name`.
        public var path: String
        /// What the query selects there, and why the model cannot decode it.
        public var message: String

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// Lays out an operation's selection for a check.
    ///
    /// - Parameters:
    ///   - operation: The operation, from an `OperationStore` or `GraphQLOperation(_:schema:)`.
    ///   - schema: The schema; `nil` takes the one the operation was loaded with.
    ///   - scalars: Values for custom scalars, by scalar name; others hold a string.
    /// - Throws: ``SetupError`` when there is no schema, the schema has no root type for the
    ///   operation, or the operation is not valid against the schema.
    public init(
        _ operation: GraphQLOperation, schema: Schema? = nil, scalars: [String: JSONValue] = [:]
    ) throws(SetupError) {
        guard let schema = schema ?? operation.schema else {
            throw SetupError(description: "\(operation) has no schema to check against; pass one with schema: "
                + "or load the operations with OperationStore(directory:schema:)")
        }
        guard let root = schema.rootType(for: operation.kind) else {
            throw SetupError(description: "the schema has no \(operation.kind.rawValue) type for \(operation)")
        }
        let problems = Validator(schema: schema).validate(operation.selection.document).filter { $0.severity == .error }
        guard problems.isEmpty else {
            let list = problems.prefix(10).map { "- " + $0.message }.joined(separator: "\n")
            throw SetupError(description: "\(operation) is not valid against the schema:\n\(list)")
        }
        var layout = SelectionLayout(schema: schema, fragments: operation.selection.fragments)
        layout.layOut(operation.selection.operation, rootType: root)
        self.operation = operation
        self.schema = schema
        self.scalars = scalars
        self.selection = layout.selection
        let (plan, cut) = variations(upTo: Self.maximumResponses)
        self.plan = plan
        truncation = layout.selection.truncation ?? (cut ? "the selection's fields, enum values and object "
            + "types make more than \(Self.maximumResponses) responses; the check decodes the first "
            + "\(Self.maximumResponses)" : nil)
    }

    /// How many `data` responses a check decodes.
    public var responseCount: Int { plan.count }

    /// One `data` response a check decodes.
    public struct Response: Sendable {
        /// What it changes in the base response, in words.
        public var change: String
        /// The `data` object.
        public var data: JSONValue
    }

    /// The `data` responses a check decodes, base response first.
    public var responses: [Response] {
        plan.map { Response(change: describe($0.change, operation: operationName), data: response($0)) }
    }

    /// Decodes every synthesized response into `model` and explains each failure once.
    ///
    /// - Parameters:
    ///   - model: What `data` decodes as in the app.
    ///   - decoder: The decoder the app uses, such as `provider.configuration.jsonDecoding.makeDecoder()`.
    /// - Returns: The problems, in the order found; empty when the model decodes every response.
    public func problems<Model: Decodable>(
        decoding model: Model.Type, decoder: JSONDecoder = JSONDecoder()
    ) -> [Problem] {
        var problems: [Problem] = []
        var seen: Set<Problem> = []
        var failedCases: Set<[Int]> = []
        for variation in plan {
            // A response on the way to an object type the model already failed on says nothing new.
            if variation.cases.contains(where: { failedCases.contains([$0.key, $0.value]) }) { continue }
            let data = Data(response(variation).serialized(.compact).utf8)
            do {
                _ = try decoder.decode(Model.self, from: data)
            } catch {
                if case .typeCase(let field, let index) = variation.change { failedCases.insert([field, index]) }
                let problem = explain(error, in: variation)
                if seen.insert(problem).inserted { problems.append(problem) }
            }
        }
        return problems
    }

    /// The name paths start with: the operation's, or `data` for an anonymous operation.
    var operationName: String { operation.name ?? "data" }
}
