import Gateway

/// What `gateway demo` prints: each step's result, the table of requests and the summary lines.
struct DemoReport {
    let results: [DemoScript.StepResult]
    let rows: [DemoScript.Row]
    /// How many refreshes the backend saw.
    let refreshes: Int

    /// Whether every step went as the script expects, every request did, and there was exactly
    /// one refresh.
    var allAsExpected: Bool {
        results.allSatisfy(\.asExpected) && rows.allSatisfy(\.asExpected) && refreshes == 1
    }

    /// `11 steps, 17 requests, all as expected.` or what was not.
    var summary: String {
        let failed = results.filter { !$0.asExpected }
        let steps = "\(results.count) step\(results.count == 1 ? "" : "s")"
        let requests = "\(rows.count) request\(rows.count == 1 ? "" : "s")"
        if allAsExpected { return "\(steps), \(requests), all as expected." }
        var problems = failed.map(\.name)
        problems += rows.filter { !$0.asExpected }.map { "request \($0.name)" }
        if refreshes != 1 { problems.append("\(refreshes) refreshes instead of 1") }
        return "\(steps), \(requests); not as expected: " + problems.joined(separator: ", ") + "."
    }

    /// `The backend saw 1 token refresh (POST /auth/refresh) in the whole demo.`
    var refreshLine: String {
        "The backend saw \(refreshes) token refresh\(refreshes == 1 ? "" : "es") (POST /auth/refresh) "
            + "in the whole demo."
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
            .init(title: "KIND"), .init(title: "NAME"), .init(title: "STATUS"), .init(title: "CACHE"),
            .init(title: "ATTEMPTS"), .init(title: "TIME", alignment: .right),
        ])
        for row in rows {
            let cache: TextTable.Colour? = switch row.cache {
            case "hit": .green
            case "-": .dim
            default: nil
            }
            table.rows.append([
                .init(row.kind), .init(row.name, row.asExpected ? nil : .red),
                .init(row.status, row.asExpected ? nil : .red), .init(row.cache, cache),
                .init(row.attempts), .init(Self.milliseconds(row.time)),
            ])
        }
        return table.render(colour: colour)
    }

    /// `12.3 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = max(0, seconds * 10_000 + attoseconds / 100_000_000_000_000)
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
