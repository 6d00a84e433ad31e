import Foundation
import GraphQLLanguage

/// What `gateway bench pipeline` measured, as a table for people or one JSON object.
struct PipelineReport {
    var rows: [PipelineBenchmark.Row]
    var requests: Int
    var runs: Int
    var serverInChild: Bool

    private static func median<T: Comparable>(_ values: [T]) -> T? {
        values.isEmpty ? nil : values.sorted()[values.count / 2]
    }

    /// The bare client's median requests/s at the same number in flight.
    private func bareRate(_ concurrency: Int) -> Double? {
        rows.first { $0.key == "bare" && $0.concurrency == concurrency }.flatMap { Self.median($0.requestsPerSecond) }
    }

    private func ratio(_ row: PipelineBenchmark.Row) -> Double? {
        guard row.key != "bare", row.key != "instant", let bare = bareRate(row.concurrency),
              let rate = Self.median(row.requestsPerSecond), bare > 0
        else { return row.key == "bare" ? 1 : nil }
        return rate / bare
    }

    private static func queueText(_ cap: Int?) -> String {
        cap.map { "cap \($0)" } ?? "none"
    }

    /// The table.
    var text: String {
        var lines = [
            "pipeline: GET of a \(PipelineBenchmark.body.count)-byte JSON body, \(requests) requests per run, "
                + "median of \(runs) runs" + (serverInChild ? " (server in a child process)"
                                                            : " (server in this process: its CPU time counts)"),
            "The Provider rows use a queue cap equal to the requests in flight (the bare client has no queue);",
            "the last row keeps the default cap of 6, so 64 in flight run 6 at a time.",
            "| client | in flight | queue | requests/s | min–max | CPU per request | context switches per request | vs bare (req/s) |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            let rate = Self.median(row.requestsPerSecond) ?? 0
            let cpu = Self.median(row.cpuPerRequest) ?? .zero
            let switches = Self.median(row.switchesPerRequest) ?? 0
            lines.append("| \(row.name) | \(row.concurrency) | \(Self.queueText(row.queueCap)) | "
                         + String(format: "%.0f", rate) + " | "
                         + String(format: "%.0f–%.0f", row.requestsPerSecond.min() ?? 0, row.requestsPerSecond.max() ?? 0)
                         + " | " + String(format: "%.1f µs", cpu.seconds * 1e6) + " | "
                         + String(format: "%.2f", switches) + " | "
                         + (ratio(row).map { String(format: "%.3f", $0) } ?? "–") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// One object: `{"benchmark": "pipeline", "requests", "runs", "server", "rows": [...]}`.
    var json: JSONValue {
        var rowValues: [JSONValue] = []
        for row in rows {
            var object = JSONObject()
            object.append("client", .string(row.key))
            object.append("label", .string(row.name))
            object.append("in_flight", .int(row.concurrency))
            object.append("queue_cap", row.queueCap.map { .int($0) } ?? .null)
            object.append("requests_per_s", .double(Self.median(row.requestsPerSecond) ?? 0))
            object.append("requests_per_s_runs", .array(row.requestsPerSecond.map { .double($0) }))
            object.append("cpu_us_per_request", .double((Self.median(row.cpuPerRequest) ?? .zero).seconds * 1e6))
            object.append("context_switches_per_request", .double(Self.median(row.switchesPerRequest) ?? 0))
            object.append("vs_bare", ratio(row).map { .double($0) } ?? .null)
            rowValues.append(.object(object))
        }
        var object = JSONObject()
        object.append("benchmark", .string("pipeline"))
        object.append("requests", .int(requests))
        object.append("runs", .int(runs))
        object.append("server", .string(serverInChild ? "child process" : "this process"))
        object.append("rows", .array(rowValues))
        return .object(object)
    }
}

extension JSONObject {
    /// Appends one member.
    mutating func append(_ key: String, _ value: JSONValue) {
        members.append(.init(key: key, value: value))
    }
}

extension JSONValue {
    /// A whole number.
    static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// A number rounded to three decimals; `null` when not finite.
    static func double(_ value: Double) -> JSONValue {
        let rounded = (value * 1000).rounded() / 1000
        return JSONNumber(rounded).map { .number($0) } ?? .null
    }
}
