import Foundation
import Gateway
import GraphQLLanguage

/// `gateway cache explain KEY`: every component that went into a key, in hashing order.
struct CacheExplainVerb: CacheVerb {
    let name = "explain"
    let synopsis = "KEY"
    let summary = "What went into a key: every component, in hashing order"
    let details = """
          Prints every component the key is the SHA-256 digest of, in hashing order: the kind;
          for GraphQL the normalized operation text, the operation name, the canonical variables
          and the endpoint; for REST the method, the URL with its query items sorted and each
          request header named by Vary; then the partition. It then recomputes the digest from
          them and says whether it is the stored key. Values of token-like fields print as
          <redacted> (the digest is over the real values).
          --json prints { key, kind, name, components: [{ name, value }], digestMatches }.
        """
    let operands: ClosedRange<Int> = 1...1

    func run(_ context: CacheContext) async throws -> Int32 {
        let store = try context.openStoreForReading()
        let record = try await context.record(context.options.operands[0], in: store, includeBody: false)
        let key = record.entry.key
        let components = key.components
        let matches = CacheKey(components: components).digest == key.digest
        if context.options.json {
            context.print(json: [
                "key": .string(key.hex),
                "kind": .string(components.kind.rawValue),
                "name": .string(CacheJSON.name(components, redactor: context.redactor)),
                "components": CacheJSON.components(components, redactor: context.redactor),
                "digestMatches": .bool(matches),
            ])
            return 0
        }
        let title = "\(CacheFormat.shortKey(key.digest)) (\(CacheFormat.kind(components.kind)), "
            + "\(CacheFormat.shortened(CacheJSON.name(components, redactor: context.redactor), to: 60)))"
        var lines = ["Key \(title) is the SHA-256 digest of these components, in this order:", ""]
        let rows = components.explained.map { component in
            (component.name, Self.text(of: component, redactor: context.redactor))
        }
        lines.append(CacheShowVerb.indented(CacheShowVerb.aligned(rows)))
        lines.append("")
        lines.append("Each component is length-prefixed before hashing, so values holding separators never collide.")
        if matches {
            lines.append("Recomputed from these components, the digest is the stored key \(key.hex).")
        } else {
            lines.append("Recomputed from these components, the digest is \(CacheKey(components: components).hex), "
                         + "not the stored key \(key.hex): the entry was written by another version of Gateway, "
                         + "or \(context.options.redis == nil ? "the database" : "the Redis entry") was changed "
                         + "by hand.")
        }
        context.print(lines.joined(separator: "\n"))
        return 0
    }

    /// A component's value as one line of text, redacted; `(absent)` for a missing one (an
    /// anonymous partition says so).
    static func text(of component: CacheKeyComponent, redactor: CacheRedactor) -> String {
        guard component.value != nil else {
            switch component.name {
            case "partition": return "(absent: anonymous)"
            case "operationName": return "(absent: an anonymous operation)"
            default: return "(absent)"
            }
        }
        switch CacheJSON.value(of: component, redactor: redactor) {
        case .string(let text): return text
        case let value: return value.serialized(.canonical)
        }
    }
}
