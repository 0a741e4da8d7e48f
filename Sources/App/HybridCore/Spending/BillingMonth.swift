package import Foundation

/// A calendar month in UTC, the period budget caps and spend counters use. Stored as `YYYY-MM`.
///
/// UTC because providers bill in UTC; a user east or west of it sees the month turn over at a different local hour.
public struct BillingMonth: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Calendar year in UTC, 1 through 9999.
    public let year: Int
    /// 1 through 12.
    public let month: Int

    /// A month from its parts; nil when `month` is outside 1...12 or `year` outside 1...9999.
    public init?(year: Int, month: Int) {
        guard (1...12).contains(month), (1...9999).contains(year) else { return nil }
        self.year = year
        self.month = month
    }

    /// The UTC month containing `date`.
    package init(containing date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month], from: date)
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
    }

    /// Parses `YYYY-MM`; nil for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1])
        else { return nil }
        self.init(year: year, month: month)
    }

    /// `YYYY-MM`, which also sorts correctly as text.
    public var description: String {
        let monthText = month < 10 ? "0\(month)" : "\(month)"
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(monthText)"
    }

    public static func < (lhs: BillingMonth, rhs: BillingMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}
