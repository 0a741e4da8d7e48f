public import Foundation
public import HybridConfig
import HybridCore

/// Floors and budgets a recommended route must meet, per feature: the `policy.json` of `hybrid recommend`.
///
/// ```json
/// {
///   "fallbackOn": ["error"],
///   "defaults": { "minAdherenceLower": 0.7, "maxQualityDrop": { "scorer": "token_f1", "value": 0.05 } },
///   "features": {
///     "summarize": { "p95LatencyMs": 8000, "maxCostPer1k": 0.5, "privacy": "open" }
///   }
/// }
/// ```
/// A feature's floors are its entry in `features` field by field over `defaults`; a field absent from both sets
/// no floor. Without a policy file, `standard` applies.
public struct RecommendationPolicy: Sendable, Hashable, Codable {
    /// The adherence margin when a policy sets none: a cheaper or faster route may lose at most 5 points.
    public static let defaultAdherenceDrop = 0.05

    /// The quality a cheaper or faster route may lose against the current route (its non-inferiority margin).
    public struct QualityFloor: Sendable, Hashable, Codable {
        /// The scorer judged; nil means the run's first scorer in alphabetical order.
        public var scorer: String?
        /// Largest acceptable drop in mean score against the current route: the one-sided paired test of
        /// (current − route) < value must hold on the cases.
        public var value: Double

        /// Creates a quality floor; a nil `scorer` means the run's first scorer alphabetically.
        public init(scorer: String? = nil, value: Double) {
            self.scorer = scorer
            self.value = value
        }
    }

    /// The floors of one feature; every field is optional.
    public struct FeaturePolicy: Sendable, Hashable, Codable {
        /// Lowest acceptable Wilson 95 % lower bound of the adherence rate (all constraints passed), in 0...1.
        public var minAdherenceLower: Double?
        /// The quality a cheaper or faster route may lose against the current route.
        public var maxQualityDrop: QualityFloor?
        /// The adherence (0...1) a cheaper or faster route may lose against the current route; 0.05 when unset.
        public var maxAdherenceDrop: Double?
        /// Latency SLO: the p95 of summed attempt latency, in milliseconds.
        public var p95LatencyMs: Double?
        /// Cost cap in dollars per 1,000 requests (mean, every attempt charged).
        public var maxCostPer1k: Double?
        /// Privacy class the route must respect; the stricter of this and the feature's own class applies.
        public var privacy: PrivacyClass?
        /// Fallback conditions to simulate with; overrides the policy's `fallbackOn`.
        public var fallbackOn: [FallbackCondition]?

        /// Creates a feature policy; every nil field falls back to the policy's `defaults`.
        public init(
            minAdherenceLower: Double? = nil, maxQualityDrop: QualityFloor? = nil, p95LatencyMs: Double? = nil,
            maxCostPer1k: Double? = nil, privacy: PrivacyClass? = nil, fallbackOn: [FallbackCondition]? = nil,
            maxAdherenceDrop: Double? = nil
        ) {
            self.maxAdherenceDrop = maxAdherenceDrop
            self.minAdherenceLower = minAdherenceLower
            self.maxQualityDrop = maxQualityDrop
            self.p95LatencyMs = p95LatencyMs
            self.maxCostPer1k = maxCostPer1k
            self.privacy = privacy
            self.fallbackOn = fallbackOn
        }

        /// This policy's fields, falling back to `base`'s where this one has none.
        public func over(_ base: FeaturePolicy) -> FeaturePolicy {
            FeaturePolicy(
                minAdherenceLower: minAdherenceLower ?? base.minAdherenceLower,
                maxQualityDrop: maxQualityDrop ?? base.maxQualityDrop,
                p95LatencyMs: p95LatencyMs ?? base.p95LatencyMs,
                maxCostPer1k: maxCostPer1k ?? base.maxCostPer1k,
                privacy: privacy ?? base.privacy,
                fallbackOn: fallbackOn ?? base.fallbackOn, maxAdherenceDrop: maxAdherenceDrop ?? base.maxAdherenceDrop)
        }
    }

    /// Fallback conditions routes are simulated with. Default `["error"]`: what `Router` does (it moves on when a
    /// model fails, not when an answer breaks a constraint). Add `adherence` only for apps that check constraints
    /// and ask the next model themselves.
    public var fallbackOn: [FallbackCondition]
    /// Floors for every feature without its own value.
    public var defaults: FeaturePolicy
    /// Feature name → floors.
    public var features: [String: FeaturePolicy]
    /// When true, a feature without `p95LatencyMs` takes its config's `deadlineMs` as the p95 SLO.
    public var deadlineAsLatencySLO: Bool
    /// The lower bound of the judge's weighted kappa against people (10 scored answers at least) that a quality
    /// floor on the judge's scores needs; default 0.6.
    public var judgeMinimumKappa: Double

    /// Creates a policy; with no arguments only errors trigger fallback and no floor is set.
    public init(
        fallbackOn: [FallbackCondition] = [.error], defaults: FeaturePolicy = FeaturePolicy(),
        features: [String: FeaturePolicy] = [:], deadlineAsLatencySLO: Bool = false, judgeMinimumKappa: Double = 0.6
    ) {
        self.fallbackOn = fallbackOn
        self.defaults = defaults
        self.features = features
        self.deadlineAsLatencySLO = deadlineAsLatencySLO
        self.judgeMinimumKappa = judgeMinimumKappa
    }

    /// The built-in policy: adherence Wilson lower bound ≥ 0.7; a cheaper or faster route may lose at most 0.05 of
    /// quality on the run's first scorer and 5 points of adherence against the current route;
    /// p95 within the feature's `deadlineMs`, no cost cap, the feature's own privacy class, fallback on errors.
    public static let standard = RecommendationPolicy(
        defaults: FeaturePolicy(minAdherenceLower: 0.7, maxQualityDrop: QualityFloor(value: 0.05)),
        deadlineAsLatencySLO: true)

    enum CodingKeys: String, CodingKey {
        case fallbackOn, defaults, features, deadlineAsLatencySLO, judgeMinimumKappa
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fallbackOn = try c.decodeIfPresent([FallbackCondition].self, forKey: .fallbackOn) ?? [.error]
        defaults = try c.decodeIfPresent(FeaturePolicy.self, forKey: .defaults) ?? FeaturePolicy()
        features = try c.decodeIfPresent([String: FeaturePolicy].self, forKey: .features) ?? [:]
        deadlineAsLatencySLO = try c.decodeIfPresent(Bool.self, forKey: .deadlineAsLatencySLO) ?? false
        judgeMinimumKappa = try c.decodeIfPresent(Double.self, forKey: .judgeMinimumKappa) ?? 0.6
    }

    /// Decodes a policy file; unknown keys are errors, so a misspelt floor is not silently ignored.
    public static func load(path: String) throws(RecommendError) -> RecommendationPolicy {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidPolicy(path: path, reason: "cannot read the file")
        }
        return try decode(data, path: path)
    }

    /// Decodes policy JSON; `path` names it in errors.
    public static func decode(_ data: Data, path: String = "policy") throws(RecommendError) -> RecommendationPolicy {
        let policy: RecommendationPolicy
        do {
            policy = try JSONValueDecoder().decode(RecommendationPolicy.self, from: JSONValue(parsing: data))
        } catch let error as DecodingError {
            throw .invalidPolicy(path: path, reason: describe(error))
        } catch {
            throw .invalidPolicy(path: path, reason: String(describing: error))
        }
        if let unknown = unknownKeys(in: data).first {
            throw .invalidPolicy(path: path, reason: "unknown key \(unknown)")
        }
        return policy
    }

    /// The floors for `feature`, resolved against its config.
    public func floors(for feature: String, config: FeatureConfig) -> FeatureFloors {
        let merged = (features[feature] ?? FeaturePolicy()).over(defaults)
        var privacy = config.privacy
        if let tighter = merged.privacy, tighter.maximumTier < privacy.maximumTier { privacy = tighter }
        return FeatureFloors(
            minAdherenceLower: merged.minAdherenceLower,
            maxQualityDrop: merged.maxQualityDrop,
            p95LatencyMs: merged.p95LatencyMs ?? (deadlineAsLatencySLO ? config.deadlineMs.map(Double.init) : nil),
            maxCostPer1k: merged.maxCostPer1k,
            privacy: privacy,
            fallback: FallbackCondition.normalized(merged.fallbackOn ?? fallbackOn),
            maxAdherenceDrop: merged.maxAdherenceDrop ?? Self.defaultAdherenceDrop)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "$" : text
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing key \(key.stringValue)"
        @unknown default:
            return String(describing: error)
        }
    }

    private static func unknownKeys(in data: Data) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        let featureKeys: Set<String> = ["minAdherenceLower", "maxAdherenceDrop", "maxQualityDrop", "p95LatencyMs", "maxCostPer1k", "privacy", "fallbackOn"]
        var unknown = root.keys.filter { !["fallbackOn", "defaults", "features", "deadlineAsLatencySLO", "judgeMinimumKappa"].contains($0) }.sorted()
        func check(_ value: Any?, _ path: String) {
            guard let object = value as? [String: Any] else { return }
            unknown += object.keys.filter { !featureKeys.contains($0) }.sorted().map { "\(path).\($0)" }
            if let quality = object["maxQualityDrop"] as? [String: Any] {
                unknown += quality.keys.filter { $0 != "scorer" && $0 != "value" }.sorted().map { "\(path).maxQualityDrop.\($0)" }
            }
        }
        check(root["defaults"], "defaults")
        for (name, value) in (root["features"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            check(value, "features.\(name)")
        }
        return unknown
    }
}
