import GraphQLLanguage

/// How `gateway generate` writes Swift: which Swift type each custom scalar becomes and the
/// access level of the generated declarations; and, for the build plugin and as defaults of
/// `gateway generate`, where the schema and the operations are.
///
/// Read from a `gateway-codegen.json` file:
///
/// ```json
/// {"schema": ["Schemas"], "operations": ["Queries"], "scalars": {"DateTime": "Foundation.Date"}, "access": "public"}
/// ```
///
/// Paths are relative to the file's folder.
///
/// A custom scalar without an entry is a `String`, except `Upload` (the GraphQL multipart
/// request specification's scalar): a variable of it is Gateway's `GraphQLUpload`, and the
/// operation sends its file as a multipart request. A mapped type must be `Codable` and
/// `Sendable`; when it is written with a module prefix (`Foundation.Date`), the files that use
/// it import that module. It decodes with the provider's `jsonDecoding`: a scalar mapped to
/// `Foundation.Date` needs that configuration's date strategy to match what the server sends
/// (ISO 8601 text, say), or its responses fail to decode.
public struct CodegenConfiguration: Sendable, Hashable {
    /// The access level of generated declarations.
    public enum Access: String, Sendable, Hashable, CaseIterable {
        /// `public`: the generated types can be used from other modules.
        case `public`
        /// `internal`: the generated types stay inside the module that compiles them.
        case `internal`
    }

    /// Custom scalar name → Swift type, for example `"DateTime": "Foundation.Date"`.
    public var scalars: [String: String]
    /// The access level of generated declarations.
    public var access: Access
    /// The schema files or folders, relative to the configuration file; empty when not given.
    public var schema: [String] = []
    /// The operation files or folders, relative to the configuration file; empty when not given.
    public var operations: [String] = []

    /// Creates a configuration.
    /// - Parameters:
    ///   - scalars: Custom scalar name → Swift type; scalars not listed become `String`
    ///     (`Upload`: `GraphQLUpload` in variables).
    ///   - access: The access level of generated declarations.
    public init(scalars: [String: String] = [:], access: Access = .public) {
        self.scalars = scalars
        self.access = access
    }

    /// A configuration file that cannot be used.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and how to fix it.
        public var description: String
    }

    /// Reads a configuration from the text of a `gateway-codegen.json` file.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: The file's path, for messages.
    /// - Throws: ``Problem`` when the text is not JSON, has an unknown key, or a value of the
    ///   wrong kind.
    public init(json bytes: [UInt8], name: String) throws(Problem) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw Problem(description: "\(name) is not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw Problem(
                description: "\(name) must hold a JSON object such as {\"scalars\": {\"DateTime\": \"String\"}}.")
        }
        self.init()
        for member in object {
            switch member.key {
            case "scalars":
                guard let entries = member.value.objectValue else {
                    throw Problem(description: "\(name): \"scalars\" must map scalar names to Swift type names.")
                }
                for entry in entries {
                    guard let type = entry.value.stringValue, !type.isEmpty else {
                        throw Problem(
                            description: "\(name): the Swift type of scalar \"\(entry.key)\" must be a string.")
                    }
                    scalars[entry.key] = type
                }
            case "access":
                guard let text = member.value.stringValue, let access = Access(rawValue: text) else {
                    throw Problem(description: "\(name): \"access\" must be \"public\" or \"internal\".")
                }
                self.access = access
            case "schema", "operations":
                let paths = member.value.arrayValue?.compactMap(\.stringValue) ?? member.value.stringValue.map { [$0] }
                guard let paths, paths.count == (member.value.arrayValue?.count ?? 1), !paths.isEmpty else {
                    throw Problem(description: "\(name): \"\(member.key)\" must be a path or a list of paths, "
                        + "such as [\"Schemas\"].")
                }
                if member.key == "schema" { schema = paths } else { operations = paths }
            default:
                throw Problem(
                    description: "\(name): unknown key \"\(member.key)\"; the keys are \"schema\", \"operations\", "
                        + "\"scalars\" and \"access\".")
            }
        }
    }

    /// The module to import for a mapped type written with a module prefix (`Foundation` for
    /// `Foundation.Date`).
    static func module(of swiftType: String) -> String? {
        guard let dot = swiftType.firstIndex(of: "."), !swiftType.hasPrefix("Swift.") else { return nil }
        let module = String(swiftType[..<dot])
        return module.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? module : nil
    }
}
