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
    /// The constraints column: `[{"message":…,"name":…,"observed":…,"passed":…}]` with sorted keys and nil members
    /// left out, as `JSONEncoder` wrote it, but written straight to bytes: `JSONEncoder` (and then the generic
    /// `JSONValue` writer) was the largest single cost of storing a result.
    static func encode(_ outcomes: [ConstraintOutcome]) throws(StoreError) -> String {
        if outcomes.isEmpty { return "[]" }
        var out = JSONTextWriter()
        out.raw("[")
        for (index, outcome) in outcomes.enumerated() {
            out.raw(index == 0 ? "{" : ",{")
            out.member("message", outcome.message)
            out.key("name")
            out.string(outcome.name)
            if let observed = outcome.observed {
                guard observed.allNumbersFinite else { throw notFinite("constraint outcomes") }
                out.key("observed")
                out.value(observed)
            }
            out.key("passed")
            out.raw(outcome.passed ? "true}" : "false}")
        }
        out.raw("]")
        return out.text
    }

    /// The scores column, `[{"detail":…,"scorer":…,"value":…}]`, written like the constraints column.
    static func encode(_ scores: [QualityScore]) throws(StoreError) -> String {
        if scores.isEmpty { return "[]" }
        var out = JSONTextWriter()
        out.raw("[")
        for (index, score) in scores.enumerated() {
            guard score.value.isFinite else { throw notFinite("quality scores") }
            out.raw(index == 0 ? "{" : ",{")
            out.member("detail", score.detail)
            out.key("scorer")
            out.string(score.scorer)
            out.key("value")
            out.number(score.value)
            out.raw("}")
        }
        out.raw("]")
        return out.text
    }

    /// JSON cannot hold NaN or infinity; `JSONEncoder` refused them, and so does this.
    private static func notFinite(_ field: String) -> StoreError {
        .invalidValue(field: field, reason: "not representable as JSON (a number is not finite)")
    }

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

extension JSONValue {
    /// False when a double anywhere inside is NaN or infinite.
    fileprivate var allNumbersFinite: Bool {
        switch self {
        case .double(let d): d.isFinite
        case .array(let items): items.allSatisfy(\.allNumbersFinite)
        case .object(let members): members.values.allSatisfy(\.allNumbersFinite)
        default: true
        }
    }
}
