import Foundation
import GraphQLLanguage

extension GraphQLVariables {
    /// Variables from Swift values: strings, numbers, booleans, optionals (`nil` is sent as
    /// `null`), arrays, dictionaries, `Date`s, `JSONValue`s and any other `Encodable` value.
    ///
    /// ```swift
    /// let author = "Ada"
    /// let first = 2
    /// let variables = try GraphQLVariables(values: ["author": author, "first": first])
    /// // {"author":"Ada","first":2}
    /// ```
    ///
    /// Members are taken in the order of their names (a dictionary has no order of its own);
    /// sending puts them in the operation's order.
    ///
    /// - Parameters:
    ///   - values: each variable's value, by name.
    ///   - options: how dates, keys and the like are written (the provider's `jsonEncoding`
    ///     when `Provider.fetch` converts them).
    /// - Throws: `GatewayError` of kind `.invalidVariables` naming a variable whose value does
    ///   not encode as JSON (a `Double` that is not finite, a value whose `encode(to:)` throws).
    public init(values: [String: any Encodable & Sendable], options: JSONEncodingOptions = JSONEncodingOptions())
        throws
    {
        let sorted = values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let members = try sorted.map { name, value in
            JSONObject.Member(key: name, value: try JSONValueConversion.value(of: value, variable: name,
                                                                              options: options))
        }
        self.init(JSONObject(members))
    }
}

/// Turns one Swift value into a `JSONValue`: the common scalars directly, anything else through
/// a `JSONEncoder` with the given options.
enum JSONValueConversion {
    static func value(of value: any Encodable, variable: String, options: JSONEncodingOptions) throws -> JSONValue {
        if let optional = value as? any OptionalValue, optional.isNone { return .null }
        switch value {
        case let json as JSONValue: return json
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .number(JSONNumber(number))
        case let number as Double:
            guard let finite = JSONNumber(number) else { throw notFinite(variable) }
            return .number(finite)
        default: return try encoded(value, variable: variable, options: options)
        }
    }

    private static func encoded(_ value: any Encodable, variable: String, options: JSONEncodingOptions) throws
        -> JSONValue
    {
        let bytes: Data
        do {
            bytes = try options.makeEncoder().encode(value)
        } catch {
            let detail = (error as? EncodingError).map(describe) ?? "its encode(to:) threw"
            throw GatewayError(
                .invalidVariables, "the value of $\(variable) (\(type(of: value))) could not be encoded as JSON: "
                    + detail,
                fix: "give $\(variable) a value that encodes as JSON (finite numbers, string keys)")
        }
        do {
            return try JSONValue(parsing: [UInt8](bytes))
        } catch {
            throw GatewayError(.invalidVariables, "the value of $\(variable) did not encode as valid JSON",
                               fix: "give $\(variable) a value that encodes as JSON")
        }
    }

    private static func notFinite(_ variable: String) -> GatewayError {
        GatewayError(.invalidVariables, "the value of $\(variable) is not a finite number, which JSON cannot carry",
                     fix: "give $\(variable) a finite number, or nil for null")
    }

    /// What went wrong, by coding path, never by the value (variables may hold secrets).
    private static func describe(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "an invalid value" + (path.isEmpty ? "" : " at " + String(path.drop { $0 == "." }))
        @unknown default:
            return "encoding failed"
        }
    }
}

/// An `Optional` seen through an existential, so that `nil` can be told apart.
protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    var isNone: Bool { self == nil }
}
