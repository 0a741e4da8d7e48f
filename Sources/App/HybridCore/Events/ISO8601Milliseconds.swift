public import Foundation

/// A date kept at millisecond precision and coded as an ISO 8601 UTC string with milliseconds
/// (`2026-11-22T22:26:18.123Z`), whatever date strategy the encoder or decoder is set to.
///
/// The date is rounded to the millisecond when set, so a value survives a round trip through JSON unchanged.
/// Formatting and the common parse are hand-written: collectors decode hundreds of thousands of these a second.
@propertyWrapper
public struct ISO8601Milliseconds: Sendable, Codable, Hashable {
    private var date: Date

    /// The date, rounded to the millisecond.
    public var wrappedValue: Date {
        get { date }
        set { date = Self.rounded(newValue) }
    }

    /// Wraps a date, rounding it to the millisecond.
    public init(wrappedValue: Date) {
        date = Self.rounded(wrappedValue)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an ISO 8601 date such as 2026-11-22T22:26:18.123Z, got \"\(text)\"")
        }
        date = Self.rounded(parsed)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.format(date))
    }

    private static func rounded(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC.
    static func format(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, msOfDay) = floorDivision(ms, 86_400_000)
        let civil = CivilDate(daysSinceEpoch: days)
        var out = ""
        out.reserveCapacity(24)
        append(civil.year, width: 4, to: &out); out += "-"
        append(civil.month, width: 2, to: &out); out += "-"
        append(civil.day, width: 2, to: &out); out += "T"
        append(Int64(msOfDay / 3_600_000), width: 2, to: &out); out += ":"
        append(Int64(msOfDay / 60_000 % 60), width: 2, to: &out); out += ":"
        append(Int64(msOfDay / 1000 % 60), width: 2, to: &out); out += "."
        append(Int64(msOfDay % 1000), width: 3, to: &out); out += "Z"
        return out
    }

    /// Parses `yyyy-MM-ddTHH:mm:ss.SSSZ` quickly, and any other ISO 8601 date-time Foundation reads.
    static func parse(_ text: String) -> Date? {
        if let fast = parseCanonical(text) { return fast }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    private static func parseCanonical(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parseCanonical($0) }
    }

    /// The date in exactly `yyyy-MM-ddTHH:mm:ss.SSSZ` (24 bytes), nil for anything else: readers of JSON call it
    /// on the string's bytes in place, so the commonest date costs no `String` (collectors read one per event).
    static func parseCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 24, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
            bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[from..<from + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), let milli = number(20, 3),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let ms = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milli
        return Date(timeIntervalSince1970: Double(ms) / 1000)
    }

    private static func append(_ value: Int64, width: Int, to out: inout String) {
        let digits = String(value)
        if digits.count < width { out += String(repeating: "0", count: width - digits.count) }
        out += digits
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}

/// A proleptic Gregorian date, converted to and from days since 1970-01-01 (H. Hinnant's civil algorithms).
private struct CivilDate {
    var year: Int64
    var month: Int64
    var day: Int64

    init(year: Int64, month: Int64, day: Int64) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    var daysSinceEpoch: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
