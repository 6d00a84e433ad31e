import Foundation
import Gateway
import GraphQLLanguage

/// `gateway cache diff KEY KEY`: which components make two keys differ, the answer to "why
/// was this a miss?".
struct CacheDiffVerb: CacheVerb {
    let name = "diff"
    let synopsis = "KEY KEY"
    let summary = "Which key components make two entries' keys differ (why a miss)"
    let details = """
          Compares the key components of two entries and names those that differ. For variables
          it names each variable whose value differs or that only one side has; for REST URLs that
          differ only in their query, each query item; for Vary, the header. Values of token-like
          fields print as <redacted>.
          --json prints { a, b (as in 'list --json'), same, differences: [{ component, a, b,
          variables or queryItems (the names that differ, where they apply) }] }.
        """
    let operands: ClosedRange<Int> = 2...2

    /// One component that differs, with what differs inside it.
    struct Difference {
        var component: String
        var a: JSONValue
        var b: JSONValue
        /// The values as `explain` prints them.
        var aText: String
        var bText: String
        /// Variable names (GraphQL `variables`) or query item names (REST `url`) that differ.
        var items: [String]?
        var itemsLabel: String?
        /// `name: A, B` lines for each item.
        var itemLines: [(String, String, String)] = []
    }

    func run(_ context: CacheContext) async throws -> Int32 {
        let store = try context.openStoreForReading()
        let a = try await context.record(context.options.operands[0], in: store, includeBody: false)
        let b = try await context.record(context.options.operands[1], in: store, includeBody: false)
        let same = a.entry.key == b.entry.key
        let differences = same ? [] : Self.differences(a.entry.key.components, b.entry.key.components,
                                                       redactor: context.redactor)
        if context.options.json {
            context.print(json: [
                "a": CacheJSON.summary(a, now: context.now, redactor: context.redactor),
                "b": CacheJSON.summary(b, now: context.now, redactor: context.redactor),
                "same": .bool(same),
                "differences": .array(differences.map { difference in
                    var object: JSONObject = ["component": .string(difference.component), "a": difference.a,
                                              "b": difference.b]
                    if let items = difference.items, let label = difference.itemsLabel {
                        object.members.append(.init(key: label, value: .array(items.map { .string($0) })))
                    }
                    return .object(object)
                }),
            ])
            return 0
        }
        var lines = [header("A", a, context), header("B", b, context), ""]
        if same {
            lines.append("A and B are the same entry.")
        } else if differences.isEmpty {
            lines.append("No component differs, yet the digests do: one entry was written by another version "
                         + "of Gateway. 'gateway cache explain' recomputes each digest.")
        } else {
            let names = differences.map { difference in
                difference.items.map { "\(difference.component) (\($0.joined(separator: ", ")))" }
                    ?? difference.component
            }
            lines.append("The keys differ in: \(names.joined(separator: ", ")).")
            for difference in differences { lines.append(contentsOf: block(difference)) }
        }
        context.print(lines.joined(separator: "\n"))
        return 0
    }

    private func header(_ label: String, _ record: CacheRecord, _ context: CacheContext) -> String {
        let components = record.entry.key.components
        return [label, CacheFormat.shortKey(record.entry.key.digest), CacheFormat.kind(components.kind),
                CacheFormat.shortened(CacheJSON.name(components, redactor: context.redactor), to: 60),
                CacheFormat.partition(components.partition, maximum: 24)].joined(separator: "  ")
    }

    private func block(_ difference: Difference) -> [String] {
        var lines = ["", "\(difference.component):"]
        if !difference.itemLines.isEmpty {
            let width = difference.itemLines.map(\.0.count).max() ?? 0
            for (name, a, b) in difference.itemLines {
                lines.append("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  A: \(a)")
                lines.append("  \(String(repeating: " ", count: width))  B: \(b)")
            }
        } else {
            lines.append("  A: \(CacheFormat.shortened(difference.aText, to: 200))")
            lines.append("  B: \(CacheFormat.shortened(difference.bText, to: 200))")
        }
        return lines
    }

    /// The components that differ between `a` and `b`, in hashing order, with detail.
    static func differences(_ a: CacheKeyComponents, _ b: CacheKeyComponents, redactor: CacheRedactor)
        -> [Difference]
    {
        let mine = Dictionary(a.explained.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let theirs = Dictionary(b.explained.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return a.differences(from: b).map { name in
            let left = mine[name]
            let right = theirs[name]
            var difference = Difference(
                component: name, a: left.map { CacheJSON.value(of: $0, redactor: redactor) } ?? .null,
                b: right.map { CacheJSON.value(of: $0, redactor: redactor) } ?? .null,
                aText: left.map { CacheExplainVerb.text(of: $0, redactor: redactor) } ?? "(absent)",
                bText: right.map { CacheExplainVerb.text(of: $0, redactor: redactor) } ?? "(absent)")
            switch name {
            case "variables" where a.kind == .graphql && b.kind == .graphql:
                variables(&difference, left?.value, right?.value, redactor: redactor)
            case "url" where a.kind == .rest && b.kind == .rest:
                queryItems(&difference, left?.value, right?.value, redactor: redactor)
            default:
                break
            }
            return difference
        }
    }

    /// Names the variables whose values differ (or that one side lacks).
    private static func variables(_ difference: inout Difference, _ a: String?, _ b: String?,
                                  redactor: CacheRedactor) {
        guard let a = a.flatMap({ try? JSONValue(parsing: $0) })?.objectValue,
              let b = b.flatMap({ try? JSONValue(parsing: $0) })?.objectValue
        else { return }
        let names = Set(a.keys).union(b.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let differing = names.filter { a[$0] != b[$0] }
        guard !differing.isEmpty else { return }
        difference.items = differing
        difference.itemsLabel = "variables"
        difference.itemLines = differing.map { name in
            ("$" + name, shown(a[name], name: name, redactor: redactor), shown(b[name], name: name, redactor: redactor))
        }
    }

    /// Names the query items that differ when two URLs differ only in their query.
    private static func queryItems(_ difference: inout Difference, _ a: String?, _ b: String?,
                                   redactor: CacheRedactor) {
        guard let a = a.flatMap(URLComponents.init(string:)), let b = b.flatMap(URLComponents.init(string:)),
              a.scheme == b.scheme, a.host == b.host, a.port == b.port, a.path == b.path
        else { return }
        func values(_ parts: URLComponents) -> [String: [String]] {
            var values: [String: [String]] = [:]
            for item in parts.queryItems ?? [] { values[item.name, default: []].append(item.value ?? "") }
            return values
        }
        let left = values(a)
        let right = values(b)
        let names = Set(left.keys).union(right.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let differing = names.filter { left[$0] != right[$0] }
        guard !differing.isEmpty else { return }
        func shown(_ values: [String]?, _ name: String) -> String {
            guard let values else { return "(absent)" }
            if redactor.rules.isSensitiveQueryItem(name) { return CacheRedactor.placeholder }
            return values.map(redactor.text).joined(separator: ", ")
        }
        difference.items = differing
        difference.itemsLabel = "queryItems"
        difference.itemLines = differing.map { ($0, shown(left[$0], $0), shown(right[$0], $0)) }
    }

    /// A variable's value as canonical JSON, redacted; `(absent)` when missing.
    private static func shown(_ value: JSONValue?, name: String, redactor: CacheRedactor) -> String {
        guard let value else { return "(absent)" }
        if redactor.rules.isSensitiveField(name) { return CacheRedactor.placeholder }
        return CacheFormat.shortened(redactor.json(value).serialized(.canonical), to: 120)
    }
}
