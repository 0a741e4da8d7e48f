import Foundation
import HybridCore

/// JSON for the store's TEXT columns: written with `JSONEncoder` (sorted keys, so equal values store equal text),
/// read with `JSONValue(parsing:)`.
enum StoreJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encode(_ value: some Encodable, field: String) throws(StoreError) -> String {
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
        var out = ColumnWriter()
        out.raw("[")
        for (index, outcome) in outcomes.enumerated() {
            out.raw(index == 0 ? "{" : ",{")
            if let message = outcome.message { out.member("message", first: true); out.string(message) }
            out.member("name", first: outcome.message == nil)
            out.string(outcome.name)
            if let observed = outcome.observed {
                guard observed.allNumbersFinite else { throw notFinite("constraint outcomes") }
                out.member("observed")
                out.text(observed.canonicalJSON)
            }
            out.member("passed")
            out.raw(outcome.passed ? "true}" : "false}")
        }
        out.raw("]")
        return out.string
    }

    /// The scores column, `[{"detail":…,"scorer":…,"value":…}]`, written like the constraints column.
    static func encode(_ scores: [QualityScore]) throws(StoreError) -> String {
        if scores.isEmpty { return "[]" }
        var out = ColumnWriter()
        out.raw("[")
        for (index, score) in scores.enumerated() {
            guard score.value.isFinite else { throw notFinite("quality scores") }
            out.raw(index == 0 ? "{" : ",{")
            if let detail = score.detail { out.member("detail", first: true); out.string(detail) }
            out.member("scorer", first: score.detail == nil)
            out.string(score.scorer)
            out.member("value")
            out.text(JSONValue.double(score.value).canonicalJSON)
            out.raw("}")
        }
        out.raw("]")
        return out.string
    }

    /// JSON cannot hold NaN or infinity; `JSONEncoder` refused them, and so does this.
    private static func notFinite(_ field: String) -> StoreError {
        .invalidValue(field: field, reason: "not representable as JSON (a number is not finite)")
    }

    /// Parses a JSON column into a `JSONValue` (`JSONValue(parsing:)`, not `JSONDecoder`, which is several times slower).
    static func value(from text: String, column: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw RecordDecodingError(table: nil, reason: "column \(column) holds invalid JSON (\(error))")
        }
    }

    static func strings(from text: String, column: String) throws -> [String] {
        try list(from: text, column: column) { element in element.stringValue }
    }

    static func constraints(from text: String, column: String) throws -> [ConstraintOutcome] {
        try list(from: text, column: column) { element in
            guard let name = element["name"]?.stringValue, let passed = element["passed"]?.boolValue else { return nil }
            let observed = element["observed"]
            return ConstraintOutcome(
                name: name, passed: passed, observed: observed == .null ? nil : observed,
                message: element["message"]?.stringValue)
        }
    }

    static func scores(from text: String, column: String) throws -> [QualityScore] {
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
struct RecordDecodingError: Error {
    var table: String?
    var reason: String
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

/// JSON text appended as UTF-8 bytes, strings escaped as the core's canonical writer escapes them.
private struct ColumnWriter {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func text(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `"key":`, after a comma unless it is the object's first member.
    mutating func member(_ key: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
