import Foundation
import HybridCore

/// JSON for the store's TEXT columns: written with `JSONEncoder` (sorted keys, so equal values store equal text),
/// read with `JSONValue(parsing:)`.
package enum StoreJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    package static func encode(_ value: some Encodable, field: String) throws(StoreError) -> String {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // The usual cause is a NaN or infinite Double, which JSON cannot represent.
            throw StoreError.invalidValue(field: field, reason: "not representable as JSON (\(error))")
        }
    }
}

extension StoreJSON {
    /// Parses a JSON column into a `JSONValue` (`JSONValue(parsing:)`, not `JSONDecoder`, which is several times slower).
    package static func value(from text: String, column: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw RecordDecodingError(table: nil, reason: "column \(column) holds invalid JSON (\(error))")
        }
    }

    package static func strings(from text: String, column: String) throws -> [String] {
        try list(from: text, column: column) { element in element.stringValue }
    }

    package static func constraints(from text: String, column: String) throws -> [ConstraintOutcome] {
        try list(from: text, column: column) { element in
            guard let name = element["name"]?.stringValue, let passed = element["passed"]?.boolValue else { return nil }
            let observed = element["observed"]
            return ConstraintOutcome(
                name: name, passed: passed, observed: observed == .null ? nil : observed,
                message: element["message"]?.stringValue)
        }
    }

    package static func scores(from text: String, column: String) throws -> [QualityScore] {
        try list(from: text, column: column) { element in
            guard let scorer = element["scorer"]?.stringValue, let value = element["value"]?.doubleValue else { return nil }
            return QualityScore(scorer: scorer, value: value, detail: element["detail"]?.stringValue)
        }
    }

    /// A JSON array column mapped element by element; `[]`, the common case, skips parsing.
    private static func list<T>(from text: String, column: String, _ element: (JSONValue) -> T?) throws -> [T] {
        if text == "[]" { return [] }
        guard case .array(let elements) = try value(from: text, column: column) else {
            throw RecordDecodingError(table: nil, reason: "column \(column) holds JSON that is not an array")
        }
        return try elements.enumerated().map { offset, value in
            guard let mapped = element(value) else {
                throw RecordDecodingError(table: nil, reason: "column \(column) element \(offset) has missing or mistyped fields")
            }
            return mapped
        }
    }
}

/// A stored row that does not decode; the store turns it into `StoreError.unreadableRow` with the path.
package struct RecordDecodingError: Error {
    package var table: String?
    package var reason: String

    package init(table: String?, reason: String) {
        self.table = table
        self.reason = reason
    }
}
