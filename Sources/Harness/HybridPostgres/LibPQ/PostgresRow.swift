import Foundation

/// One row of a result, as text (libpq's text format) with its column names: decoded into Swift values by the
/// types the store reads. The subset of PostgresNIO's `PostgresRow` the store used.
struct PostgresRow: Sendable {
    let columns: [String]
    let values: [String?]

    /// The first column as `T`.
    func decode<T: PostgresDecodable>(_ type: T.Type) throws -> T {
        try T.decode(cell(0), column: columns.first ?? "?")
    }

    /// The first two columns.
    func decode<A: PostgresDecodable, B: PostgresDecodable>(_ type: (A, B).Type) throws -> (A, B) {
        (try A.decode(cell(0), column: name(0)), try B.decode(cell(1), column: name(1)))
    }

    /// The first three columns.
    func decode<A: PostgresDecodable, B: PostgresDecodable, C: PostgresDecodable>(_ type: (A, B, C).Type) throws -> (A, B, C) {
        (try A.decode(cell(0), column: name(0)), try B.decode(cell(1), column: name(1)), try C.decode(cell(2), column: name(2)))
    }

    /// The first four columns.
    func decode<A: PostgresDecodable, B: PostgresDecodable, C: PostgresDecodable, D: PostgresDecodable>(
        _ type: (A, B, C, D).Type
    ) throws -> (A, B, C, D) {
        (
            try A.decode(cell(0), column: name(0)), try B.decode(cell(1), column: name(1)),
            try C.decode(cell(2), column: name(2)), try D.decode(cell(3), column: name(3))
        )
    }

    /// The first five columns.
    func decode<A: PostgresDecodable, B: PostgresDecodable, C: PostgresDecodable, D: PostgresDecodable, E: PostgresDecodable>(
        _ type: (A, B, C, D, E).Type
    ) throws -> (A, B, C, D, E) {
        (
            try A.decode(cell(0), column: name(0)), try B.decode(cell(1), column: name(1)),
            try C.decode(cell(2), column: name(2)), try D.decode(cell(3), column: name(3)),
            try E.decode(cell(4), column: name(4))
        )
    }

    /// Cells by column name.
    func makeRandomAccess() -> PostgresRandomAccessRow {
        PostgresRandomAccessRow(row: self)
    }

    private func cell(_ index: Int) throws -> String? {
        guard index < values.count else {
            throw PostgresDecodingError(column: "#\(index)", reason: "the row has \(values.count) columns")
        }
        return values[index]
    }

    private func name(_ index: Int) -> String {
        index < columns.count ? columns[index] : "#\(index)"
    }
}

/// A row's cells by column name.
struct PostgresRandomAccessRow: Sendable {
    let row: PostgresRow

    subscript(_ name: String) -> PostgresCell {
        let index = row.columns.firstIndex(of: name)
        return PostgresCell(column: name, value: index.flatMap { row.values[$0] }, exists: index != nil)
    }
}

/// One cell, decoded on demand.
struct PostgresCell: Sendable {
    let column: String
    let value: String?
    let exists: Bool

    func decode<T: PostgresDecodable>(_ type: T.Type) throws -> T {
        guard exists else { throw PostgresDecodingError(column: column, reason: "no such column") }
        return try T.decode(value, column: column)
    }
}

/// A cell that did not hold what the store expected.
struct PostgresDecodingError: Error, CustomStringConvertible {
    let column: String
    let reason: String
    var description: String { "column \(column): \(reason)" }
}

/// A Swift value read from a cell's text.
protocol PostgresDecodable {
    static func decode(_ text: String?, column: String) throws -> Self
}

/// Non-optional values: NULL is an error naming the column.
protocol PostgresTextDecodable: PostgresDecodable {
    init?(postgresText text: String)
}

extension PostgresTextDecodable {
    static func decode(_ text: String?, column: String) throws -> Self {
        guard let text else { throw PostgresDecodingError(column: column, reason: "NULL where \(Self.self) was expected") }
        guard let value = Self(postgresText: text) else {
            throw PostgresDecodingError(column: column, reason: "'\(text.prefix(40))' is not a \(Self.self)")
        }
        return value
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresTextDecodable {
    static func decode(_ text: String?, column: String) throws -> Wrapped? {
        guard let text else { return nil }
        return try Wrapped.decode(text, column: column)
    }
}

extension String: PostgresTextDecodable {
    init?(postgresText text: String) { self = text }
}

extension Int: PostgresTextDecodable {
    init?(postgresText text: String) { self.init(text) }
}

extension Int64: PostgresTextDecodable {
    init?(postgresText text: String) { self.init(text) }
}

extension Double: PostgresTextDecodable {
    init?(postgresText text: String) { self.init(text) }
}

extension Bool: PostgresTextDecodable {
    init?(postgresText text: String) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension Date: PostgresTextDecodable {
    init?(postgresText text: String) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

extension Data: PostgresTextDecodable {
    /// bytea's hex output, `\x0a1b…`.
    init?(postgresText text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0 else {
            return nil
        }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 97...102: byte - 87
            case 65...70: byte - 55
            default: nil
            }
        }
        var out = Data(capacity: (bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        self = out
    }
}
