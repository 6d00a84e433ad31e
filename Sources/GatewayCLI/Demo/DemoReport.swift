import Gateway

/// What `gateway demo` prints: each step's result, the table of requests and a summary line.
struct DemoReport {
    let results: [DemoScript.StepResult]
    let records: [DemoRecorder.Record]

    /// Whether every step went as the script expects and every step's request was recorded.
    var allAsExpected: Bool {
        results.allSatisfy { result in result.asExpected && records.contains { $0.name == result.name } }
    }

    /// `9 requests, all as expected.` or how many were not.
    var summary: String {
        let failed = results.filter { result in !result.asExpected || !records.contains { $0.name == result.name } }
        let noun = results.count == 1 ? "request" : "requests"
        if failed.isEmpty { return "\(results.count) \(noun), all as expected." }
        return "\(failed.count) of \(results.count) \(noun) did not go as expected: "
            + failed.map(\.name).joined(separator: ", ") + "."
    }

    /// One line per step: its name and what it got back.
    func steps(colour: Bool) -> String {
        let width = results.map(\.name.count).max() ?? 0
        return results.map { result in
            let mark = result.asExpected ? "ok  " : "FAIL"
            let tinted = colour ? "\u{1B}[\(result.asExpected ? "32" : "31")m\(mark)\u{1B}[0m" : mark
            let padding = String(repeating: " ", count: width - result.name.count)
            return "  \(tinted)  \(result.name)\(padding)  \(result.detail)"
        }.joined(separator: "\n")
    }

    /// The aligned table of every request.
    func table(colour: Bool) -> String {
        var table = TextTable(columns: [
            .init(title: "KIND"), .init(title: "NAME"), .init(title: "REQUEST"), .init(title: "STATUS"),
            .init(title: "OUTCOME"), .init(title: "ATTEMPTS", alignment: .right),
            .init(title: "TIME", alignment: .right),
        ])
        for record in records {
            let result = results.first { $0.name == record.name }
            let expected = result?.asExpected ?? false
            let outcome = result?.outcome ?? Self.describe(record.outcome)
            table.rows.append([
                .init("REST"), .init(record.name), .init(record.request),
                .init(record.status.map(String.init) ?? "-"),
                .init(expected ? outcome : "UNEXPECTED: \(outcome)", expected ? .green : .red),
                .init("\(record.attempts)"), .init(Self.milliseconds(record.total)),
            ])
        }
        return table.render(colour: colour)
    }

    static func describe(_ outcome: RequestOutcome?) -> String {
        switch outcome {
        case .success?: "ok"
        case .failure(let error)?: "\(error.kind) error"
        case .cancelled?: "cancelled"
        case nil: "unfinished"
        }
    }

    /// `12.3 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
