import Foundation
import GraphQLLanguage

extension GraphQLRequest {
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
