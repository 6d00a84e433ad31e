import Foundation
import GraphQLLanguage

extension GraphQLRequest {
    /// The upload slots of `uploads`, in the order of their parts: sorted by path.
    static func slots(_ uploads: [String: GraphQLUpload]) -> [GraphQLPayload.Upload] {
        uploads.sorted { $0.key < $1.key }.map { GraphQLPayload.Upload(path: $0.key, file: $0.value) }
    }

    /// Checks that `path` names a place holding `null` in `variables`, as a generated operation's
    /// `GraphQLUpload` encodes; a hand-written `uploads` that names another place is an error.
    static func checkPlaceholder(at path: String, in variables: GraphQLVariables) throws {
        let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var value = steps.first.flatMap { variables[$0] }
        for step in steps.dropFirst() {
            if case .array? = value, let index = Int(step) { value = value?[index] } else { value = value?[step] }
        }
        guard value?.isNull == true else {
            throw GatewayError(.invalidVariables, "the upload path \"\(path)\" is not a place that holds null "
                                   + "in the encoded variables",
                               fix: "make uploads name each GraphQLUpload property (\"image\", \"files.0\")")
        }
    }

    /// Puts the `null` placeholder of an upload at `path` in `variables`.
    static func placeholder(at path: String, in variables: inout GraphQLVariables,
                            operation: GraphQLOperation) throws {
        let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = steps.first, !first.isEmpty, !steps.contains(where: \.isEmpty) else {
            throw GatewayError(.invalidVariables, "the upload path \"\(path)\" is not a variable path",
                               fix: "name the variable the file fills (\"image\"), or a place in it (\"files.0\")")
        }
        if steps.count == 1 {
            variables[first] = .null
            return
        }
        guard let root = variables[first] else {
            throw GatewayError(.invalidVariables,
                               "the upload path \"\(path)\" goes inside $\(first), which was not given",
                               fix: "give $\(first) in the variables with null where each file goes")
        }
        var value = root
        guard value.settingNull(at: steps.dropFirst()) else {
            throw GatewayError(.invalidVariables, "the upload path \"\(path)\" is not a place inside $\(first)",
                               fix: "give $\(first) with a member or list element at each step of the path")
        }
        variables[first] = value
    }
}
extension JSONValue {
    /// Sets the value at `steps` (object keys or list indices) to `null`; `false` when a step
    /// does not exist. The depth is the path's length, which the caller wrote.
    fileprivate mutating func settingNull(at steps: ArraySlice<String>) -> Bool {
        guard let step = steps.first else {
            self = .null
            return true
        }
        switch self {
        case .object(var object):
            guard var member = object[step], member.settingNull(at: steps.dropFirst()) else { return false }
            object[step] = member
            self = .object(object)
            return true
        case .array(var items):
            guard let index = Int(step), items.indices.contains(index),
                  items[index].settingNull(at: steps.dropFirst()) else { return false }
            self = .array(items)
            return true
        default:
            return false
        }
    }
}
