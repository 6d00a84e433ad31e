import Foundation

/// The `Retry-After` header (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    /// The delay `value` asks for, measured from `now`; `nil` when it is not valid. A date in the
    /// past gives zero; a number too large to represent gives a very long delay (the policy
    /// clamps it).
    static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard text.utf8.count <= 12, let seconds = Int64(text) else { return .seconds(Int64(1) << 40) }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds <= 0 ? .zero : .seconds(clamping: seconds)
    }
}

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms that
/// recipients must still accept.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let shortDays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                                "sunday"]

    /// The date `text` names, or `nil` when it is none of the three forms.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map { String($0) }
        switch parts.count {
        case 6:
            // Sun, 06 Nov 1994 08:49:37 GMT
            guard parts[0].hasSuffix(","), shortDays.contains(parts[0].dropLast().lowercased()), parts[5] == "GMT",
                  parts[1].count == 2, parts[3].count == 4,
                  let day = Int(parts[1]), let month = month(parts[2]), let year = Int(parts[3]) else { return nil }
            return date(year: year, month: month, day: day, time: parts[4])
        case 4:
            // Sunday, 06-Nov-94 08:49:37 GMT
            let pieces = parts[1].split(separator: "-", omittingEmptySubsequences: false).map { String($0) }
            guard parts[0].hasSuffix(","), longDays.contains(parts[0].dropLast().lowercased()), parts[3] == "GMT",
                  pieces.count == 3, pieces[0].count == 2, pieces[2].count == 2,
                  let day = Int(pieces[0]), let month = month(pieces[1]), let shortYear = Int(pieces[2]) else {
                return nil
            }
            // Two-digit years: 70–99 are 19xx, 00–69 are 20xx.
            return date(year: shortYear >= 70 ? 1900 + shortYear : 2000 + shortYear, month: month, day: day,
                        time: parts[2])
        case 5:
            // Sun Nov  6 08:49:37 1994
            guard shortDays.contains(parts[0].lowercased()), (1...2).contains(parts[2].count), parts[4].count == 4,
                  let month = month(parts[1]), let day = Int(parts[2]), let year = Int(parts[4]) else { return nil }
            return date(year: year, month: month, day: day, time: parts[3])
        default:
            return nil
        }
    }

    private static func month(_ name: String) -> Int? {
        guard name.count == 3, let index = months.firstIndex(of: name.lowercased()) else { return nil }
        return index + 1
    }

    private static func date(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month, year)).contains(day)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
