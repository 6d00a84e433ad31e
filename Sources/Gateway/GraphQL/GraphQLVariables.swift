import Foundation
import GraphQLLanguage

/// The variables of one GraphQL request, as JSON: written as a literal, read from JSON text,
/// converted from Swift values, or encoded from an `Encodable` value.
///
/// ```swift
/// let variables: GraphQLVariables = ["id": 42, "kinds": ["TRACK", "ARTIST"]]
/// let fromText = try GraphQLVariables(parsing: #"{"id": "42"}"#)
/// let fromValue = try GraphQLVariables(encoding: LikeTrackVariables(input: .init(trackID: "42")))
/// let author = "Ada"
/// let fromSwift = try GraphQLVariables(values: ["author": author, "first": 2])
/// ```
///
/// A literal's values are `JSONValue`s; values held in Swift variables (`["author": author]`)
/// go through `init(values:options:)`, which `Provider.fetch` calls for a dictionary of them.
///
/// The values are checked against the operation's variable definitions before anything is
/// sent: missing and unknown variables, `null` for a non-null type, the built-in scalars and
/// lists always; enum values and the members of input objects only when the operations were
/// loaded with a schema (`OperationStore(directory:schema:)`). Without one, a value for an
/// enum, input object or custom scalar is sent as it is and the server checks it.
public struct GraphQLVariables: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The variables, in the order given.
    public var object: JSONObject

    /// Variables from a JSON object.
    public init(_ object: JSONObject = [:]) { self.object = object }

    /// Variables from a literal: `["id": 42]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        object = JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) })
    }

    /// Variables from a JSON value, which must be an object (or `null` for none).
    ///
    /// - Throws: `GatewayError` of kind `.invalidVariables` for any other value.
    public init(json: JSONValue) throws {
        switch json {
        case .object(let object): self.object = object
        case .null: self.object = [:]
        default:
            throw GatewayError(.invalidVariables, "variables must be a JSON object, not \(json.kindDescription)",
                               fix: "pass an object whose members are the variables: {\"id\": 42}")
        }
    }

    /// Variables from JSON text, which must hold an object.
    ///
    /// - Throws: `GatewayError` of kind `.invalidVariables` for text that is not JSON or not an object.
    public init(parsing text: String) throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw GatewayError(.invalidVariables, "the variables are not valid JSON: \(error)",
                               fix: "write the variables as a JSON object: {\"id\": 42}")
        }
        try self.init(json: value)
    }

    /// Variables from an `Encodable` value whose properties are the variables; a `JSONValue`
    /// is taken as it is.
    ///
    /// - Parameters:
    ///   - value: a struct or dictionary that encodes as a JSON object.
    ///   - options: how dates, keys and the like are written.
    /// - Throws: `GatewayError` of kind `.invalidVariables` when the value does not encode, or
    ///   does not encode as an object.
    public init(encoding value: some Encodable, options: JSONEncodingOptions = JSONEncodingOptions()) throws {
        if let json = value as? JSONValue {
            try self.init(json: json)
            return
        }
        if let variables = value as? GraphQLVariables {
            self = variables
            return
        }
        let bytes: Data
        do {
            bytes = try options.makeEncoder().encode(value)
        } catch {
            throw GatewayError(.invalidVariables, "the variables could not be encoded as JSON",
                               fix: "make \(type(of: value)) encode as a JSON object", underlying: error)
        }
        do {
            try self.init(json: JSONValue(parsing: [UInt8](bytes)))
        } catch let error as GatewayError {
            throw error
        } catch {
            throw GatewayError(.invalidVariables, "the encoded variables are not valid JSON", underlying: error)
        }
    }

    /// The value of the variable `name`, or `nil` when it is absent.
    public subscript(name: String) -> JSONValue? {
        get { object[name] }
        set { object[name] = newValue }
    }

    /// Whether there are no variables.
    public var isEmpty: Bool { object.isEmpty }

    /// The compact JSON text.
    public var description: String { JSONValue.object(object).serialized() }
}

/// One problem with a variable: missing, unknown, `null` where a value is required, or a value
/// of the wrong shape. The message names the variable and, inside a list or input object, the
/// place: `$input.trackID`, `$ids[2]`.
public struct GraphQLVariableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: String, Sendable, Hashable, CaseIterable {
        /// A variable of a non-null type without a default was not given.
        case missing
        /// A variable the operation does not declare was given.
        case unknown
        /// `null` where the type is non-null.
        case null
        /// A value of the wrong kind for its type (a string for an `Int`, an object for a list item…).
        case wrongType
        /// A string that is not one of the enum's values.
        case unknownEnumValue
        /// An input object member the input type does not have.
        case unknownField
        /// A required member of an input object was not given.
        case missingField
        /// The value is nested deeper than the checker follows.
        case tooDeep
    }

    /// The variable's name, without `$`.
    public var variable: String
    /// Where in the variable: `$input.trackID`, `$ids[2]`, or `$id` for the whole value.
    public var path: String
    /// What is wrong.
    public var problem: Problem
    /// The whole message, naming the variable.
    public var message: String

    /// Creates a problem.
    public init(variable: String, path: String, problem: Problem, message: String) {
        self.variable = variable
        self.path = path
        self.problem = problem
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
