import Foundation
import Gateway

/// Sizes, ages, times and shortened texts as a person writes them: `2.0 KiB`, `3 min`,
/// `in 5 min`, `expired 2 h ago`, `2026-11-21 10:04:05 UTC`.
enum CacheFormat {
    /// `512 B`, `2.0 KiB`, `1.5 MiB`, `3.2 GiB` (binary units, one decimal above bytes).
    static func size(_ bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(max(bytes, 0)) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // 1023.96 KiB would print as "1024.0 KiB": move up a unit instead.
        if (value * 10).rounded() >= 10240, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }

    /// A length of time in its largest whole unit: `0 s`, `45 s`, `3 min`, `2 h`, `4 d`.
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = seconds.isFinite ? Int(min(max(seconds, 0), 1e15)) : 0
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min"
        case ..<86_400: return "\(whole / 3600) h"
        default: return "\(whole / 86_400) d"
        }
    }

    /// How long ago `date` was at `now`: `3 min` (or `0 s` for a date in the future, which a
    /// clock set back can produce).
    static func age(of date: Date, now: Date) -> String { duration(now.timeIntervalSince(date)) }

    /// When an entry stops being fresh, seen from `now`: `never`, `in 5 min`, `expired 2 h ago`.
    static func expiry(_ expiresAt: Date?, now: Date) -> String {
        guard let expiresAt else { return "never" }
        let remaining = expiresAt.timeIntervalSince(now)
        if remaining > 0 { return "in " + duration(max(remaining, 1)) }
        return "expired " + duration(-remaining) + " ago"
    }

    /// A moment in UTC, to the second: `2026-11-21 10:04:05 UTC`.
    static func time(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// A moment in ISO 8601, UTC, to the millisecond: `2026-11-21T10:04:05.250Z`.
    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    /// A moment with how long ago (or ahead) it is: `2026-11-21 10:04:05 UTC (3 min ago)`.
    static func moment(_ date: Date, now: Date) -> String {
        let offset = date.timeIntervalSince(now)
        let relative = offset > 0 ? "in " + duration(offset) : duration(-offset) + " ago"
        return "\(time(date)) (\(relative))"
    }

    /// The first 12 hex digits of a key: what tables show and what `show`, `explain`, `diff`
    /// and `evict` accept back (any unique prefix is accepted).
    static func shortKey(_ digest: CacheKey.Digest) -> String { String(digest.hex.prefix(12)) }

    /// `anonymous`, or the subject (shortened to `maximum` characters when asked).
    static func partition(_ partition: CachePartition, maximum: Int? = nil) -> String {
        guard let subject = partition.subject else { return "anonymous" }
        let text = subject == "anonymous" || subject.isEmpty ? "subject:\(subject)" : subject
        return maximum.map { shortened(text, to: $0) } ?? text
    }

    /// `text` cut to `maximum` characters with `…` in the middle, keeping its start and end
    /// (a URL's host and its last path segment, a subject's prefix and suffix).
    static func shortened(_ text: String, to maximum: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard flat.count > maximum, maximum > 3 else { return flat }
        let head = (maximum - 1) * 2 / 3
        let tail = maximum - 1 - head
        return String(flat.prefix(head)) + "…" + String(flat.suffix(tail))
    }

    /// `GraphQL` or `REST`.
    static func kind(_ kind: CacheKeyComponents.Kind) -> String {
        switch kind {
        case .graphql: "GraphQL"
        case .rest: "REST"
        }
    }

    /// `1 entry`, `3 entries`: a count with its noun.
    static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(value) \(value == 1 ? singular : plural)"
    }

    /// A rate as a percentage with one decimal, or `-` before the first look-up.
    static func rate(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        return String(format: "%.1f %%", value * 100)
    }
}
