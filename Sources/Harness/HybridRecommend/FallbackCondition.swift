import Foundation
import HybridCore

/// When a simulated router moves on from an arm's result to the next arm of the order.
///
/// `error` always applies: a request that failed serves nothing. The others are opt-in, written on the command
/// line as `adherence`, `schema`, `constraints`, `check:max_words`, `timeout:2s` (or `timeout:1500ms`) and
/// `quality:rouge_l>=0.4`. All but `quality` are conditions the router evaluates at run time (a routing block's
/// `fallbackOnOutput` and `attemptTimeoutMs`); quality scores need references an app does not have.
public enum FallbackCondition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The result failed (any error kind).
    case error
    /// Some constraint of the feature failed (schema or soft constraint).
    case adherence
    /// An output check failed: `schema` (JSON parse or schema), `constraints` (any soft constraint) or one result
    /// name (`max_words`); see `OutputCheckSelection`.
    case check(String)
    /// The result took longer than this many milliseconds in total. A router would have cut the request at the
    /// threshold, so the simulation charges the threshold, not the full latency, and serves nothing from it.
    case timeout(milliseconds: Double)
    /// The scorer's score is below the minimum, or the result has no score from it.
    case quality(scorer: String, minimum: Double)

    /// Parses one condition as written on the command line or in a policy file.
    public static func parse(_ text: String) throws(RecommendError) -> FallbackCondition {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower == "error" { return .error }
        if lower == "adherence" { return .adherence }
        if lower == "schema" || lower == "constraints" { return .check(lower) }
        if lower.hasPrefix("check:") {
            let name = String(lower.dropFirst("check:".count))
            guard OutputChecks.resultNames.contains(name) else {
                throw .invalidCondition(trimmed, reason: "no output check \(name) (checks: \(OutputChecks.resultNames.joined(separator: ", ")))")
            }
            return .check(name)
        }
        if lower.hasPrefix("timeout:") {
            let value = String(lower.dropFirst("timeout:".count))
            guard let ms = Self.milliseconds(value), ms > 0 else {
                throw .invalidCondition(trimmed, reason: "the timeout must be a positive duration such as 2s or 1500ms")
            }
            return .timeout(milliseconds: ms)
        }
        if lower.hasPrefix("quality:") {
            let rest = String(trimmed.dropFirst("quality:".count))
            guard let range = rest.range(of: ">=") else {
                throw .invalidCondition(trimmed, reason: "write the quality floor as quality:SCORER>=VALUE")
            }
            let scorer = rest[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            guard !scorer.isEmpty, let minimum = Double(rest[range.upperBound...].trimmingCharacters(in: .whitespaces)),
                minimum.isFinite
            else {
                throw .invalidCondition(trimmed, reason: "write the quality floor as quality:SCORER>=VALUE")
            }
            return .quality(scorer: scorer, minimum: minimum)
        }
        throw .invalidCondition(trimmed, reason: "unknown condition")
    }

    /// Parses a comma-separated list (`adherence,timeout:2s`); `error` is added when missing.
    public static func parseList(_ text: String) throws(RecommendError) -> [FallbackCondition] {
        var conditions: [FallbackCondition] = []
        for part in text.split(separator: ",") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
            conditions.append(try parse(String(part)))
        }
        return normalized(conditions)
    }

    /// `conditions` with `error` first and duplicates removed.
    public static func normalized(_ conditions: [FallbackCondition]) -> [FallbackCondition] {
        var out: [FallbackCondition] = [.error]
        for condition in conditions where !out.contains(condition) { out.append(condition) }
        return out
    }

    private static func milliseconds(_ text: String) -> Double? {
        if text.hasSuffix("ms") { return Double(text.dropLast(2)) }
        if text.hasSuffix("s") { return Double(text.dropLast()).map { $0 * 1000 } }
        return Double(text).map { $0 * 1000 }
    }

    public var description: String {
        switch self {
        case .error: "error"
        case .adherence: "adherence"
        case .check(let name): name == "schema" || name == "constraints" ? name : "check:\(name)"
        case .timeout(let ms): ms.truncatingRemainder(dividingBy: 1000) == 0 ? "timeout:\(Int(ms / 1000))s" : "timeout:\(Int(ms.rounded()))ms"
        case .quality(let scorer, let minimum): "quality:\(scorer)>=\(minimum)"
        }
    }

    // Policy files write conditions as the same strings as the command line.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try Self.parse(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
