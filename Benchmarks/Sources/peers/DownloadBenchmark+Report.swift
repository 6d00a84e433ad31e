import Foundation

extension DownloadBenchmark {
    /// A Markdown table: per client, the median MB/s (each run's), its ratio to curl (of the
    /// medians, and each round's), CPU seconds per download and peak resident memory growth.
    func report(_ samples: [[Sample]], hashesMatch: Bool) -> String {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted.count.isMultiple(of: 2)
                ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
        }
        func list(_ values: [Double], _ format: String) -> String {
            values.map { String(format: format, $0) }.joined(separator: ", ")
        }
        let curl = samples[Client.curl.rawValue].isEmpty
            ? Array(repeating: Sample(megabytesPerSecond: .nan, cpuSeconds: .nan), count: runs)
            : samples[Client.curl.rawValue]
        let curlSpeed = median(curl.map(\.megabytesPerSecond))
        var lines = [
            "download: \(bytes) bytes from the loopback server (child process), \(runs) runs of each client "
                + "after a warm-up round, taking turns",
            "",
            "| client | MB/s median (runs) | ÷ curl, of medians (each round) | CPU s per download, median (runs) "
                + "| peak RSS growth, MiB (runs) |",
            "|---|---|---|---|---|",
        ]
        for client in clients {
            let runs = samples[client.rawValue]
            let speeds = runs.map(\.megabytesPerSecond)
            let perRound = zip(runs, curl).map { $0.megabytesPerSecond / $1.megabytesPerSecond }
            let growth = runs.compactMap(\.peakGrowth).map { Double($0) / 1_048_576 }
            lines.append(
                "| \(client.name) | " + String(format: "%.0f", median(speeds)) + " (\(list(speeds, "%.0f"))) | "
                    + String(format: "%.2f", median(speeds) / curlSpeed) + " (\(list(perRound, "%.2f"))) | "
                    + String(format: "%.3f", median(runs.map(\.cpuSeconds))) + " (\(list(runs.map(\.cpuSeconds), "%.3f"))) | "
                    + (growth.isEmpty ? "(another process)" : list(growth, "%.1f")) + " |")
        }
        lines.append("")
        lines.append("SHA-256 of each client's file (first measured round): "
            + (hashesMatch ? "all match the served file's" : "DO NOT all match the served file's"))
        return lines.joined(separator: "\n")
    }
}
