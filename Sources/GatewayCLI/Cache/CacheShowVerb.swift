import Foundation
import Gateway
import GraphQLLanguage

/// `gateway cache show KEY`: one entry, everything about it, secrets hidden.
struct CacheShowVerb: CacheVerb {
    let name = "show"
    let synopsis = "KEY"
    let summary = "One entry: its key components, response (pretty JSON), headers, times, size, hits"
    let details = """
          Prints one entry: its key components (GraphQL: the operation name, endpoint, canonical
          variables and the normalized query pretty-printed; REST: the method, URL and the request
          headers named by Vary; and the partition), its tags, status, when it was stored, when it
          expires and was last used, its size and hits, its validators, its headers, and the
          stored response (JSON pretty-printed, text as it is; binary data is not shown). Values
          of token-like fields print as <redacted> (see --redact).
          --json prints one object: the fields of 'list --json', then components (name and value
          in hashing order), headers, etag, lastModified, bodyBytes, and body (JSON) or bodyText,
          and query (the pretty-printed operation) for GraphQL.
        """
    let operands: ClosedRange<Int> = 1...1

    func run(_ context: CacheContext) async throws -> Int32 {
        let store = try context.openStoreForReading()
        let record = try await context.record(context.options.operands[0], in: store, includeBody: true)
        let components = record.entry.key.components
        let query = components.operation.map { Self.prettyQuery($0, redactor: context.redactor) }
        if context.options.json {
            guard case .object(var object) = CacheJSON.detail(record, now: context.now, redactor: context.redactor)
            else { return 1 }
            if let query { object.members.append(.init(key: "query", value: .string(query))) }
            context.print(json: .object(object))
            return 0
        }
        context.print(text(record, query: query, context: context))
        return 0
    }

    /// The normalized operation text, secrets hidden, in the Printer's pretty form (as it is
    /// when it does not parse).
    static func prettyQuery(_ operation: String, redactor: CacheRedactor) -> String {
        let text = redactor.text(operation)
        guard let document = try? Parser.parse(Source(text)) else { return text }
        return Printer.print(document)
    }

    private func text(_ record: CacheRecord, query: String?, context: CacheContext) -> String {
        let entry = record.entry
        let components = entry.key.components
        let redactor = context.redactor
        var fields: [(String, String)] = [("Key", entry.key.hex), ("Kind", CacheFormat.kind(components.kind))]
        switch components.kind {
        case .graphql:
            fields.append(("Operation", components.operationName ?? "(anonymous)"))
            fields.append(("Endpoint", redactor.url(components.endpoint)))
            fields.append(("Variables", redactor.variables(components.variables).serialized(.canonical)))
        case .rest:
            fields.append(("Method", components.method ?? "GET"))
            fields.append(("URL", redactor.url(components.endpoint)))
            for field in components.vary {
                fields.append(("Vary \(field.name)", field.value.map { redactor.header(field.name, $0) } ?? "(absent)"))
            }
        }
        fields.append(("Partition", CacheFormat.partition(components.partition)))
        if !entry.tags.isEmpty { fields.append(("Tags", entry.tags.map(redactor.text).joined(separator: ", "))) }
        fields.append(("Status", String(entry.status)))
        fields.append(("Stored", CacheFormat.moment(entry.storedAt, now: context.now)))
        fields.append(("Expires", entry.expiresAt.map { expiry($0, now: context.now) } ?? "never"))
        fields.append(("Last used", CacheFormat.moment(record.lastAccess, now: context.now)))
        fields.append(("Size", "\(CacheFormat.size(record.size)) (\(record.size) bytes counted against the limit)"))
        fields.append(("Hits", String(record.hits)))
        if let etag = entry.etag { fields.append(("ETag", etag)) }
        if let lastModified = entry.lastModified { fields.append(("Last-Modified", lastModified)) }

        var sections = [Self.aligned(fields)]
        if let query { sections.append("Query:\n" + Self.indented(query)) }
        let headers = redactor.headers(entry.headers).map { "\($0.name): \($0.value)" }
        sections.append("Headers:\n" + Self.indented(headers.isEmpty ? "(none)" : headers.joined(separator: "\n")))
        sections.append(body(entry, redactor: redactor))
        return sections.joined(separator: "\n\n")
    }

    /// `2026-11-21 10:04:05 UTC (in 5 min)` or `... (expired 2 h ago)`.
    private func expiry(_ date: Date, now: Date) -> String {
        "\(CacheFormat.time(date)) (\(CacheFormat.expiry(date, now: now)))"
    }

    private func body(_ entry: CacheEntry, redactor: CacheRedactor) -> String {
        let size = CacheFormat.size(entry.body.count)
        switch redactor.body(entry.body, contentType: entry.headers["Content-Type"]) {
        case .empty:
            return "Response body: (empty)"
        case .json(let value):
            return "Response body (JSON, \(size)):\n" + Self.indented(value.serialized(.pretty))
        case .text(let text):
            return "Response body (text, \(size)):\n" + Self.indented(text)
        case .binary(let count):
            return "Response body: \(count) bytes of binary data (not shown)"
        }
    }

    /// `Name  value` lines with the values lined up.
    static func aligned(_ fields: [(String, String)]) -> String {
        let width = fields.map(\.0.count).max() ?? 0
        return fields.map { name, value in
            name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
        }.joined(separator: "\n")
    }

    /// Every line indented by two spaces.
    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
            .joined(separator: "\n")
    }
}
