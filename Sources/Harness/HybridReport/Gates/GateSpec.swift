import Foundation
import HybridCore

/// The CI gates file (`gates.json`): thresholds per feature and arm, and regression rules against a baseline.
///
/// ```json
/// {
///   "features": {
///     "summarize": {
///       "*":            { "minAdherenceLower": 0.9, "minQuality": { "rouge_l": 0.30 }, "maxP95TotalMs": 4000 },
///       "@gpt-4o-mini": { "maxCostPer1k": 0.25 }
///     },
///     "*": { "*": { "minAdherenceLower": 0.8 } }
///   },
///   "regression": { "mode": "significant", "metrics": ["adherence", "quality", "latency"] }
/// }
/// ```
/// Feature keys are names or `*`; arm keys are patterns (see ``ArmPattern``). When several patterns match an arm,
/// each threshold comes from the most specific one that sets it: exact feature over `*`, then exact arm id over
/// `variant@` / `@model` over `*`.
public struct GateSpec: Sendable, Hashable, Codable {
    /// Feature name (or `*`) → arm pattern → thresholds.
    public var features: [String: [String: GateThresholds]]
    /// Rules against the baseline; nil for none.
    public var regression: RegressionRule?

    /// A gate spec; see the properties.
    public init(features: [String: [String: GateThresholds]] = [:], regression: RegressionRule? = nil) {
        self.features = features
        self.regression = regression
    }

    /// Reads and validates a gates file.
    public static func load(path: String) throws(ReportError) -> GateSpec {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
        let spec: GateSpec
        do {
            spec = try JSONValueDecoder().decode(GateSpec.self, from: JSONValue(parsing: data))
        } catch {
            throw .unreadableFile(path: path, reason: "not a valid gates file (\(error))")
        }
        if let problem = spec.problem { throw .invalidGateSpec(path: path, reason: problem) }
        return spec
    }

    /// The first impossible setting, described, or nil when the spec is usable.
    public var problem: String? {
        for (feature, arms) in features {
            for (pattern, thresholds) in arms {
                if pattern.isEmpty { return "features.\(feature) has an empty arm pattern; use \"*\"" }
                if let value = thresholds.minAdherenceLower, !(0...1).contains(value) {
                    return "features.\(feature).\(pattern).minAdherenceLower must be within 0…1, got \(value)"
                }
                if let value = thresholds.maxP95TotalMs, value < 0 {
                    return "features.\(feature).\(pattern).maxP95TotalMs must not be negative"
                }
                if let value = thresholds.maxCostPer1k, value < 0 {
                    return "features.\(feature).\(pattern).maxCostPer1k must not be negative"
                }
            }
        }
        return nil
    }

    /// The thresholds that apply to `arm` of `feature`, merged from every matching entry, most specific first.
    public func thresholds(feature: String, arm: ArmSummary) -> GateThresholds {
        var merged = GateThresholds()
        // Least specific first, so later (more specific) entries override.
        for featureKey in feature == "*" ? ["*"] : ["*", feature] {
            guard let arms = features[featureKey] else { continue }
            let matching = arms.compactMap { key, value -> (Int, String, GateThresholds)? in
                guard let pattern = ArmPattern(key), pattern.matches(arm) else { return nil }
                return (pattern.specificity, key, value)
            }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            for (_, _, thresholds) in matching {
                merged.merge(thresholds)
            }
        }
        return merged
    }
}

/// Thresholds for one arm; every field is optional and only set fields are checked.
public struct GateThresholds: Sendable, Hashable, Codable {
    /// Minimum Wilson 95 % lower bound of adherence (0…1).
    public var minAdherenceLower: Double?
    /// Minimum mean quality per scorer.
    public var minQuality: [String: Double]?
    /// Maximum p95 total latency in milliseconds.
    public var maxP95TotalMs: Double?
    /// Maximum cost per 1,000 requests in US dollars.
    public var maxCostPer1k: Double?

    /// Thresholds; see the properties.
    public init(
        minAdherenceLower: Double? = nil, minQuality: [String: Double]? = nil, maxP95TotalMs: Double? = nil,
        maxCostPer1k: Double? = nil
    ) {
        self.minAdherenceLower = minAdherenceLower
        self.minQuality = minQuality
        self.maxP95TotalMs = maxP95TotalMs
        self.maxCostPer1k = maxCostPer1k
    }

    mutating func merge(_ other: GateThresholds) {
        minAdherenceLower = other.minAdherenceLower ?? minAdherenceLower
        if let quality = other.minQuality {
            minQuality = (minQuality ?? [:]).merging(quality) { _, new in new }
        }
        maxP95TotalMs = other.maxP95TotalMs ?? maxP95TotalMs
        maxCostPer1k = other.maxCostPer1k ?? maxCostPer1k
    }
}

/// Regression rules against a baseline (a committed `report.json` or another stored run).
public struct RegressionRule: Sendable, Hashable, Codable {
    /// How a drop is judged.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// A drop fails only when its paired confidence interval excludes zero (Holm-adjusted): noise never fails CI.
        case significant
        /// A drop fails when it exceeds the tolerances below, however noisy: strict, may flake on small n.
        case threshold
    }

    /// `significant` (default) or `threshold`.
    public var mode: Mode
    /// Which of `adherence`, `quality`, `latency` to check; nil checks all three.
    public var metrics: [String]?
    /// Threshold mode: the largest allowed drop in adherence rate (0…1); default 0.
    public var maxAdherenceDrop: Double?
    /// Threshold mode: the largest allowed drop in mean quality; default 0.
    public var maxQualityDrop: Double?
    /// Threshold mode: the largest allowed increase of p95 total latency in milliseconds; default 0.
    public var maxP95IncreaseMs: Double?

    /// A rule; see the properties.
    public init(
        mode: Mode = .significant, metrics: [String]? = nil, maxAdherenceDrop: Double? = nil,
        maxQualityDrop: Double? = nil, maxP95IncreaseMs: Double? = nil
    ) {
        self.mode = mode
        self.metrics = metrics
        self.maxAdherenceDrop = maxAdherenceDrop
        self.maxQualityDrop = maxQualityDrop
        self.maxP95IncreaseMs = maxP95IncreaseMs
    }

    func checks(_ metric: String) -> Bool {
        metrics.map { $0.contains(metric) } ?? true
    }
}
