import Foundation

/// A statement and its bound values, written as a string with interpolations: `"… WHERE id = \(runID)"` binds
/// `runID` as `$1` (never pasted into the SQL), `\(unescaped: columns)` pastes trusted text. The subset of
/// PostgresNIO's `PostgresQuery` the store used, over libpq.
struct PostgresQuery: ExpressibleByStringInterpolation, Sendable {
    var sql: String
    var binds: PostgresBindings

    init(unsafeSQL sql: String, binds: PostgresBindings = PostgresBindings()) {
        self.sql = sql
        self.binds = binds
    }

    init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds = PostgresBindings()

        init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
        }

        mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        mutating func appendInterpolation(_ value: (some PostgresEncodable)?) {
            binds.appendNull(ifNil: value)
            sql += "$\(binds.count)"
        }

        mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }
    }
}

/// Bound values in text form with their type OIDs, so the server never has to guess a parameter's type.
struct PostgresBindings: Sendable {
    private(set) var values: [String?] = []
    private(set) var types: [UInt32] = []

    init(capacity: Int = 0) {
        values.reserveCapacity(capacity)
        types.reserveCapacity(capacity)
    }

    var count: Int { values.count }

    mutating func append(_ value: some PostgresEncodable) {
        values.append(value.postgresText)
        types.append(type(of: value).postgresType)
    }

    mutating func appendNull<Value: PostgresEncodable>(ifNil value: Value?) {
        values.append(value?.postgresText)
        types.append(Value.postgresType)
    }
}

/// A value sent as a bound parameter: its text form and its type's OID.
protocol PostgresEncodable: Sendable {
    static var postgresType: UInt32 { get }
    var postgresText: String { get }
}

extension String: PostgresEncodable {
    static var postgresType: UInt32 { 25 }  // text
    var postgresText: String { self }
}

extension Int: PostgresEncodable {
    static var postgresType: UInt32 { 20 }  // int8
    var postgresText: String { String(self) }
}

extension Int64: PostgresEncodable {
    static var postgresType: UInt32 { 20 }
    var postgresText: String { String(self) }
}

extension Double: PostgresEncodable {
    static var postgresType: UInt32 { 701 }  // float8; Swift's description round-trips
    var postgresText: String { description }
}

extension Bool: PostgresEncodable {
    static var postgresType: UInt32 { 16 }  // bool
    var postgresText: String { self ? "t" : "f" }
}

extension Date: PostgresEncodable {
    static var postgresType: UInt32 { 1184 }  // timestamptz, in UTC with milliseconds
    var postgresText: String { PostgresTimestamp.format(self) }
}

extension Data: PostgresEncodable {
    static var postgresType: UInt32 { 17 }  // bytea, hex form
    var postgresText: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]("\\x".utf8)
        out.reserveCapacity(2 + count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// `timestamptz` in and out of text: the session runs in UTC, so the server writes `2026-11-26 15:04:05.123+00`.
enum PostgresTimestamp {
    static func format(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = Int((milliseconds / 1000).rounded(.down))
        let fraction = Int(milliseconds) - seconds * 1000
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d.%03d+00", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), fraction)
    }

    /// Parses the server's ISO output (`YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]`).
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            var scale = 0.1
            index += 1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            let hours = number((index + 1)..<(index + 3)) ?? 0
            var minutes = 0
            if index + 3 < bytes.count, bytes[index + 3] == UInt8(ascii: ":") { minutes = number((index + 4)..<(index + 6)) ?? 0 }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }
}
