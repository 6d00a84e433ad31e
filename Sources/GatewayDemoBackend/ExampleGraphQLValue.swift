import GraphQLLanguage

/// What a resolver of the example backend answers for a field, before the executor completes
/// it against the field's type and the selection.
indirect enum ExampleGraphQLValue: Sendable {
    case null
    /// A scalar or enum value, as it goes into the response.
    case leaf(JSONValue)
    case object(ExampleGraphQLObject)
    case list([ExampleGraphQLValue])

    static func string(_ text: String) -> ExampleGraphQLValue { .leaf(.string(text)) }
    static func int(_ number: Int) -> ExampleGraphQLValue { .leaf(.number(JSONNumber(number))) }
    static func bool(_ value: Bool) -> ExampleGraphQLValue { .leaf(.bool(value)) }
    static func strings(_ texts: [String]) -> ExampleGraphQLValue { .list(texts.map(string)) }

    /// `.leaf(.string(text))`, or `.null` when `text` is `nil`.
    static func optional(_ text: String?) -> ExampleGraphQLValue { text.map(string) ?? .null }
}

/// An object of a concrete type, with a resolver for its fields.
struct ExampleGraphQLObject: Sendable {
    /// The object type's name; the executor answers `__typename` with it and matches fragments'
    /// type conditions against it.
    var typeName: String
    /// Answers a field from its name and coerced arguments; a thrown `ExampleGraphQLFieldError`
    /// becomes an error at the field's path and the field's value is `null`.
    var resolve: @Sendable (_ field: String, _ arguments: JSONObject) throws(ExampleGraphQLFieldError)
        -> ExampleGraphQLValue

    init(_ typeName: String,
         resolve: @escaping @Sendable (String, JSONObject) throws(ExampleGraphQLFieldError) -> ExampleGraphQLValue) {
        self.typeName = typeName
        self.resolve = resolve
    }
}

/// A field that could not be resolved: its message and an optional `extensions.code`.
struct ExampleGraphQLFieldError: Error, Sendable {
    var message: String
    var code: String?

    init(_ message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }

    /// The field needs a signed-in listener and the request had no access token.
    static func unauthenticated(_ field: String) -> ExampleGraphQLFieldError {
        ExampleGraphQLFieldError("\(field) needs a signed-in listener: send Authorization: Bearer <access token>",
                                 code: "UNAUTHENTICATED")
    }

    /// The resolver does not know a field the schema has.
    static func unknown(_ field: String, on type: String) -> ExampleGraphQLFieldError {
        ExampleGraphQLFieldError("the example backend has no resolver for \(type).\(field)")
    }
}
