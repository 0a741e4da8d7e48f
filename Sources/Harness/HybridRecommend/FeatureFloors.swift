public import HybridConfig

/// The floors one feature's route must meet, resolved from a `RecommendationPolicy` and the feature's config.
public struct FeatureFloors: Sendable, Hashable {
    /// Lowest acceptable Wilson 95 % lower bound of adherence, in 0...1; nil sets no floor.
    public var minAdherenceLower: Double?
    /// The quality a cheaper or faster route may lose against the current one (the non-inferiority margin, on its
    /// scorer); nil: quality is not compared.
    public var maxQualityDrop: RecommendationPolicy.QualityFloor?
    /// The adherence a cheaper or faster route may lose against the current one (the non-inferiority margin).
    public var maxAdherenceDrop: Double
    /// Latency SLO on the p95 of summed attempt latency, in milliseconds; nil sets none.
    public var p95LatencyMs: Double?
    /// Cost cap in US dollars per 1,000 requests; nil sets none.
    public var maxCostPer1k: Double?
    /// The effective privacy class: the stricter of the policy's and the feature's.
    public var privacy: PrivacyClass
    /// Fallback conditions routes are simulated with (`error` included).
    public var fallback: [FallbackCondition]

    /// Creates floors; fallback defaults to errors only, as `Router` does.
    public init(
        minAdherenceLower: Double? = nil, maxQualityDrop: RecommendationPolicy.QualityFloor? = nil,
        p95LatencyMs: Double? = nil, maxCostPer1k: Double? = nil, privacy: PrivacyClass, fallback: [FallbackCondition] = [.error],
        maxAdherenceDrop: Double = RecommendationPolicy.defaultAdherenceDrop
    ) {
        self.maxAdherenceDrop = maxAdherenceDrop
        self.minAdherenceLower = minAdherenceLower
        self.maxQualityDrop = maxQualityDrop
        self.p95LatencyMs = p95LatencyMs
        self.maxCostPer1k = maxCostPer1k
        self.privacy = privacy
        self.fallback = FallbackCondition.normalized(fallback)
    }
}
