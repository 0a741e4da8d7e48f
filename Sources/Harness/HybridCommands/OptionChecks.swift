import ArgumentParser
import HybridConfig

/// Range checks for numeric options, thrown from `validate()` so a bad value is a usage error (exit 64) that names
/// the option, before anything is loaded or sent. A zero concurrency would otherwise dispatch nothing and hang.
enum OptionChecks {
    /// Throws when `value` is given and below `minimum`.
    static func atLeast(_ minimum: Int, _ value: Int?, option: String) throws {
        if let value, value < minimum {
            throw ValidationError("\(option) must be at least \(minimum), found \(value)")
        }
    }

    /// "--spending: unknown spending function "pocok"; did you mean "pocock"? (known: obrienFleming, pocock)": the
    /// message for a name outside `known`, with the config's own suggestion (``ConfigValidator/suggestion(for:in:)``).
    static func unknownName(_ value: String, known: [String], what: String, at place: String) -> String {
        let guess = ConfigValidator.suggestion(for: value, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
        return "\(place): unknown \(what) \"\(value)\"\(guess) (known: \(known.joined(separator: ", ")))"
    }

    /// Throws when `value` is given and outside `range` (or not a finite number).
    static func within(_ range: ClosedRange<Double>, _ value: Double?, option: String) throws {
        if let value, !(value.isFinite && range.contains(value)) {
            throw ValidationError("\(option) must be between \(range.lowerBound) and \(range.upperBound), found \(value)")
        }
    }
}
