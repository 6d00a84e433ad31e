import Foundation

/// Writes a parameter tree as ordered name–value pairs, the shared core of the query, form and
/// multipart encoders.
///
/// Rules: object keys in ascending order (Swift `String` order, which does not depend on the
/// locale); array elements in their order, named by `URLEncodingOptions.ArrayEncoding`; nested
/// objects as `a[b]`; `nil` values, empty arrays and empty objects are left out (an indexed
/// array keeps each element's original index). Names and values are returned unescaped.
enum URLEncodedPairs {
    /// The pairs of a top-level keyed value.
    ///
    /// - Throws: `GatewayError` of kind `.encoding` when the value is not keyed (an array or a
    ///   single value has no names to write) or cannot be encoded.
    static func pairs(
        for parameters: any Encodable, options: URLEncodingOptions, encoder: String
    ) throws -> [(name: String, value: String)] {
        let root: ParameterNode
        do {
            root = try ParameterTreeEncoder.tree(for: parameters)
        } catch let error as EncodingError {
            throw GatewayError(.encoding, "the \(encoder) encoder could not encode \(typeName(parameters)): "
                + describe(error), underlying: error)
        }
        switch root.content {
        case .object, .unset, .null:
            var output: [(name: String, value: String)] = []
            write(root, name: nil, options: options, into: &output)
            return output
        case .array:
            throw notKeyed(parameters, got: "an array", encoder: encoder)
        case .string, .bool, .date:
            throw notKeyed(parameters, got: "a single value", encoder: encoder)
        }
    }

    /// Joins pairs as `name=value&…`, escaping each part by RFC 3986 (space as `+` in forms).
    static func join(_ pairs: [(name: String, value: String)], spaceAsPlus: Bool) -> String {
        pairs.map {
            PercentEncoding.escape($0.name, spaceAsPlus: spaceAsPlus) + "="
                + PercentEncoding.escape($0.value, spaceAsPlus: spaceAsPlus)
        }.joined(separator: "&")
    }

    /// Depth is bounded by `ParameterNode.maxDepth`, checked when the tree was built.
    private static func write(
        _ node: ParameterNode, name: String?, options: URLEncodingOptions,
        into output: inout [(name: String, value: String)]
    ) {
        switch node.content {
        case .unset, .null:
            return
        case .string(let text):
            output.append((name ?? "", text))
        case .bool(let bool):
            output.append((name ?? "", options.text(for: bool)))
        case .date(let date):
            output.append((name ?? "", options.text(for: date)))
        case .object(let children):
            for key in children.keys.sorted() {
                guard let child = children[key] else { continue }
                write(child, name: name.map { "\($0)[\(key)]" } ?? key, options: options, into: &output)
            }
        case .array(let children):
            let base = name ?? ""
            for (index, child) in children.enumerated() {
                let childName = switch options.arrays {
                case .brackets: "\(base)[]"
                case .repeated: base
                case .indexed: "\(base)[\(index)]"
                }
                write(child, name: childName, options: options, into: &output)
            }
        }
    }

    private static func notKeyed(_ parameters: any Encodable, got kind: String, encoder: String) -> GatewayError {
        GatewayError(
            .encoding, "the \(encoder) encoder needs named parameters, but \(typeName(parameters)) encodes as \(kind)",
            fix: "pass a struct or a [String: …] dictionary, for example [\"ids\": [1, 2]]")
    }

    static func typeName(_ value: Any) -> String { String(describing: type(of: value)) }

    /// An encoding error by its coding path and reason, never by the value it saw.
    static func describe(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let place = path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
            return "\(context.debugDescription) at \(place)"
        @unknown default:
            return "encoding failed"
        }
    }
}
