import Foundation
import GraphQLLanguage

/// What the decode stage tells a decoding about the provider it runs in.
public struct ResponseDecodingContext: Sendable {
    /// The provider's JSON settings, used by `.json` when it was not given its own.
    public var json: JSONDecodingOptions
    /// Whether the response answers a GraphQL persisted-query hash (alone, or with the text).
    public var persistedQuery = PersistedQueryOutcome.notUsed

    /// Creates a context.
    public init(json: JSONDecodingOptions = JSONDecodingOptions()) { self.json = json }
}

/// How an endpoint turns its successful response into a value: JSON into a `Decodable`, the raw
/// bytes, nothing at all, or your own function.
///
/// Runs in the pipeline's decode stage (step 9), only for accepted responses.
public struct ResponseDecoding<Value: Sendable>: Sendable {
    /// What the decoding does, for messages: `JSON as User`, `raw data`, `no body`.
    public let summary: String
    private let body: @Sendable (HTTPResponse, ResponseDecodingContext) throws -> Value

    /// A decoding made from a function.
    ///
    /// - Parameters:
    ///   - summary: what the decoding does, for messages.
    ///   - decode: turns the response into the value; throw `GatewayError` of kind `.decoding`
    ///     with a clear message (other errors are wrapped as `.decoding`).
    public init(_ summary: String,
                decode: @escaping @Sendable (HTTPResponse, ResponseDecodingContext) throws -> Value) {
        self.summary = summary
        body = decode
    }

    /// Decodes `response`.
    ///
    /// - Throws: `GatewayError` of kind `.decoding`.
    public func decode(_ response: HTTPResponse, context: ResponseDecodingContext = ResponseDecodingContext())
        throws -> Value
    {
        try body(response, context)
    }
}

extension ResponseDecoding where Value: Decodable {
    /// JSON decoded with the provider's `Configuration.jsonDecoding`.
    public static var json: ResponseDecoding {
        ResponseDecoding("JSON as \(Value.self)") { response, context in
            try JSONBody.decode(Value.self, from: response, decoder: context.json.makeDecoder())
        }
    }

    /// JSON decoded with its own settings.
    public static func json(_ options: JSONDecodingOptions) -> ResponseDecoding {
        ResponseDecoding("JSON as \(Value.self)") { response, _ in
            try JSONBody.decode(Value.self, from: response, decoder: options.makeDecoder())
        }
    }

    /// JSON decoded with a `JSONDecoder` you configure; `makeDecoder` is called for each response.
    public static func json(decoder makeDecoder: @escaping @Sendable () -> JSONDecoder) -> ResponseDecoding {
        ResponseDecoding("JSON as \(Value.self)") { response, _ in
            try JSONBody.decode(Value.self, from: response, decoder: makeDecoder())
        }
    }

    /// The decoding the endpoint factories pick: the raw bytes for `Data`, nothing for `Empty`,
    /// and JSON with the provider's settings for every other type.
    public static var automatic: ResponseDecoding {
        if Value.self == Data.self {
            return ResponseDecoding("raw data") { response, _ in
                switch response.body {
                case let value as Value: return value
                default: throw JSONBody.impossible(Value.self)
                }
            }
        }
        if Value.self == Empty.self {
            return ResponseDecoding("no body") { _, _ in
                switch Empty() {
                case let value as Value: return value
                default: throw JSONBody.impossible(Value.self)
                }
            }
        }
        return json
    }
}

extension ResponseDecoding where Value == Data {
    /// The body's bytes as they arrived.
    public static var data: ResponseDecoding { ResponseDecoding("raw data") { response, _ in response.body } }
}

extension ResponseDecoding where Value == Empty {
    /// Nothing: any body is ignored (for 204 and other empty answers).
    public static var empty: ResponseDecoding { ResponseDecoding("no body") { _, _ in Empty() } }
}

/// How a failed response's body is decoded into `GatewayError.apiError`.
public struct APIErrorDecoding: Sendable {
    /// The name of the error body's type, for messages.
    public let typeName: String
    private let body: @Sendable (HTTPResponse, ResponseDecodingContext) throws -> any Sendable

    /// Decodes the error body as JSON of type `E`; `nil` options follow the provider's.
    public static func json<E: Decodable & Sendable>(_ type: E.Type, options: JSONDecodingOptions? = nil)
        -> APIErrorDecoding
    {
        APIErrorDecoding(typeName: String(describing: E.self)) { response, context in
            try JSONBody.decode(E.self, from: response, decoder: (options ?? context.json).makeDecoder())
        }
    }

    /// An error-body decoding made from a function.
    public init(typeName: String, decode: @escaping @Sendable (HTTPResponse, ResponseDecodingContext) throws
        -> any Sendable)
    {
        self.typeName = typeName
        body = decode
    }

    /// Decodes the body of `response`.
    ///
    /// - Throws: `GatewayError` of kind `.decoding`.
    public func decode(_ response: HTTPResponse, context: ResponseDecodingContext = ResponseDecodingContext())
        throws -> any Sendable
    {
        try body(response, context)
    }
}

/// JSON bodies decoded with errors that name the coding path, never the values seen.
enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, decoder: JSONDecoder) throws -> T {
        let typeName = String(describing: T.self)
        if response.body.isEmpty {
            throw GatewayError(
                .decoding, "expected a JSON body to decode as \(typeName), got an empty body "
                    + "(HTTP \(HTTPStatus.describe(response.status)))",
                fix: "declare the endpoint as Endpoint<Empty> when the server sends no body", response: response)
        }
        do {
            return try decoder.decode(T.self, from: response.body)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
               (try? JSONSerialization.jsonObject(with: response.body, options: .fragmentsAllowed)) == nil {
                let mediaType = response.headers["Content-Type"].map { " (Content-Type: \($0.prefix(100)))" } ?? ""
                let reason = Result { try JSONValue(parsing: [UInt8](response.body)) }.failureDescription
                throw GatewayError(
                    .decoding, "expected a JSON body to decode as \(typeName), but the body is not JSON\(mediaType)\(reason)",
                    fix: "check the URL and what the server answers there; use Endpoint<Data> to read the raw body",
                    response: response, underlying: error)
            }
            throw GatewayError(
                .decoding, "could not decode \(typeName): \(Redaction.describe(decodingError: error))",
                fix: "make \(typeName) match the JSON the server sends (an optional property for a key that may "
                    + "be missing or null)", response: response, underlying: error)
        } catch let error as GatewayError {
            throw error
        } catch {
            throw GatewayError(.decoding, "could not decode \(typeName)", response: response, underlying: error)
        }
    }

    static func impossible(_ type: Any.Type) -> GatewayError {
        GatewayError(.decoding, "internal mismatch decoding \(type)")
    }
}

extension Result {
    /// `: ` and the error's description for a failure, nothing for a success.
    fileprivate var failureDescription: String {
        guard case .failure(let error) = self else { return "" }
        return ": \(error)"
    }
}
