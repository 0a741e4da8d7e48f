/// One row of a feature's table: everything measured about one arm (prompt variant × model).
public struct ArmSummary: Sendable, Hashable, Codable {
    /// `"<variant>@<modelID>"`, as stored.
    public var armID: String
    /// The prompt variant.
    public var promptVariant: String
    /// The configured model id.
    public var modelID: String
    /// The model's tier (`on-device`, `private-cloud`, `third-party`).
    public var tier: String
    /// Number of results.
    public var count: Int
    /// Results with an error (no usable output).
    public var errorCount: Int
    /// Errors by kind, e.g. `{"timeout": 2}`.
    public var errorsByKind: [String: Int]
    /// Results served from the response cache.
    public var cacheHits: Int
    /// Results that needed at least one retry.
    public var retried: Int
    /// Results flagged as cold starts (model load).
    public var coldStarts: Int
    /// Share of results that met every constraint, errors counted as failures; nil when the feature has no
    /// constraints.
    public var adherence: ProportionSummary?
    /// Adherence per constraint, sorted by name; errors count as failures of every constraint.
    public var constraints: [NamedProportion]
    /// Quality per scorer, sorted by scorer.
    public var quality: [ScoreSummary]
    /// Latency of successful, uncached, unretried, warm results; cold starts apart.
    public var latency: LatencySummary
    /// Token counts.
    public var tokens: TokenSummary
    /// Cost; nil when no result of the arm had a price.
    public var cost: CostSummary?
    /// True when no other arm of the feature has both higher-or-equal primary quality and lower-or-equal cost per
    /// 1,000 (and is strictly better in one); nil when quality or cost is missing.
    public var paretoOptimal: Bool?
    /// Per-case values for pairing, aligned with ``FeatureReport/caseKeys``; nil when omitted.
    public var cases: ArmCases?
    /// Why the arm was never sent, e.g. `OPENAI_API_KEY not set`, when every result is `unavailable`. Such an arm
    /// has no figures (no adherence, constraints, quality, cost or per-case values) and is left out of worst
    /// cases, rankings, comparisons and gates; nil for arms that were measured.
    public var notMeasured: String?
    /// For an arm that was sent and answered none of its results: the first distinct error messages, in full (up
    /// to three), so a report can say why before any figure; nil for arms with an answer and for unsent arms.
    public var unansweredErrors: [String]?

    /// An arm row; normally made by ``ReportBuilder``.
    public init(
        armID: String, promptVariant: String, modelID: String, tier: String, count: Int, errorCount: Int,
        errorsByKind: [String: Int], cacheHits: Int, retried: Int, coldStarts: Int, adherence: ProportionSummary?,
        constraints: [NamedProportion], quality: [ScoreSummary], latency: LatencySummary, tokens: TokenSummary,
        cost: CostSummary?, paretoOptimal: Bool?, cases: ArmCases?, notMeasured: String? = nil
    ) {
        self.armID = armID
        self.promptVariant = promptVariant
        self.modelID = modelID
        self.tier = tier
        self.count = count
        self.errorCount = errorCount
        self.errorsByKind = errorsByKind
        self.cacheHits = cacheHits
        self.retried = retried
        self.coldStarts = coldStarts
        self.adherence = adherence
        self.constraints = constraints
        self.quality = quality
        self.latency = latency
        self.tokens = tokens
        self.cost = cost
        self.paretoOptimal = paretoOptimal
        self.cases = cases
        self.notMeasured = notMeasured
    }

    /// Results that came back with an answer (no error).
    public var answered: Int { count - errorCount }

    /// The quality summary of `scorer`.
    public func quality(_ scorer: String) -> ScoreSummary? {
        quality.first { $0.scorer == scorer }
    }
}

/// A pass rate with its Wilson 95 % interval.
public struct ProportionSummary: Sendable, Hashable, Codable {
    /// Passes (results; with repeats, every repeat counts).
    public var passed: Int
    /// Trials (results).
    public var total: Int
    /// passed / total; with repeats, the mean over cases of each case's reduced repeats (``RepeatReducer``).
    public var rate: Double
    /// Wilson lower bound, on cases when there are repeats.
    public var lower: Double
    /// Wilson upper bound, on cases when there are repeats.
    public var upper: Double
    /// The units the rate and interval are computed on when they are not the results: cases when results repeat
    /// cases, installs in a field run. nil when every result is its own unit (as `total` says).
    public var units: Int?

    /// The summary of `passed` out of `total`, or nil when `total` is 0.
    public init?(passed: Int, total: Int) {
        guard let interval = WilsonInterval(successes: passed, trials: total) else { return nil }
        self.passed = passed
        self.total = total
        rate = interval.proportion
        lower = interval.lower
        upper = interval.upper
        units = nil
    }

    /// The summary of repeated results: `passed` of `total` results, whose cases' reduced values are `caseValues`
    /// (NaN for a case without one). The rate is their mean and the interval a Wilson interval on the cases;
    /// nil when no case has a value.
    public init?(passed: Int, total: Int, caseValues: [Double]) {
        guard let interval = WilsonInterval(unitValues: caseValues) else { return nil }
        self.init(
            passed: passed, total: total, rate: interval.proportion, lower: interval.lower, upper: interval.upper,
            units: interval.trials)
    }

    /// `passed` of `total` results over `cases` cases: the rate stays passed / total (each case weighs its repeats),
    /// the interval is Wilson's on the cases. nil when `total` or `cases` is 0.
    public init?(passed: Int, total: Int, cases: Int) {
        guard total > 0, let interval = WilsonInterval(proportion: Double(passed) / Double(total), trials: cases)
        else { return nil }
        self.passed = passed
        self.total = total
        rate = interval.proportion
        lower = interval.lower
        upper = interval.upper
        self.units = cases
    }
}

/// A pass rate of one named constraint.
public struct NamedProportion: Sendable, Hashable, Codable {
    /// The constraint name.
    public var name: String
    /// Its pass rate.
    public var proportion: ProportionSummary

    /// A named pass rate.
    public init(name: String, proportion: ProportionSummary) {
        self.name = name
        self.proportion = proportion
    }
}

/// A scorer's mean with its bootstrap interval.
public struct ScoreSummary: Sendable, Hashable, Codable {
    /// The scorer's name.
    public var scorer: String
    /// Number of scored results.
    public var count: Int
    /// Mean score.
    public var mean: Double
    /// Interval bounds and standard error; nil with a single value.
    public var lower: Double?
    /// Upper bound; see ``lower``.
    public var upper: Double?
    /// Standard error of the mean; nil with a single value.
    public var standardError: Double?
    /// `percentile-bootstrap`, `normal-approximation` or `single-value`.
    public var method: String

    /// A score summary; see the properties.
    public init(scorer: String, count: Int, mean: Double, lower: Double?, upper: Double?, standardError: Double?, method: String) {
        self.scorer = scorer
        self.count = count
        self.mean = mean
        self.lower = lower
        self.upper = upper
        self.standardError = standardError
        self.method = method
    }
}

/// Latency figures of one arm, in milliseconds (decode speed in tokens per second).
public struct LatencySummary: Sendable, Hashable, Codable {
    /// Results the figures describe: successful, not cache hits, no retries, not cold starts.
    public var sampleCount: Int
    /// Results left out because they were cache hits.
    public var excludedCacheHits: Int
    /// Results left out because they were retried (and not cache hits).
    public var excludedRetried: Int
    /// Results left out as cold starts (shown in ``coldStartTotalMs``).
    public var excludedColdStarts: Int
    /// Results left out because they failed.
    public var excludedErrors: Int
    /// Time to first token; nil when no sample streamed.
    public var ttftMs: DistributionSummary?
    /// Total time per request; nil without samples.
    public var totalMs: DistributionSummary?
    /// Decode speed; nil when no sample reported it.
    public var decodeTokensPerSecond: DistributionSummary?
    /// Total time of the cold starts (successful, uncached, unretried); nil without any.
    public var coldStartTotalMs: DistributionSummary?
    /// Time spent waiting in the server's queue or on the network: the client's total minus the server's own
    /// prompt and generation times, over the samples whose server reported them (llama.cpp); nil when none did,
    /// so reports of other servers are unchanged.
    public var queueingMs: DistributionSummary?

    /// Latency figures; see the properties.
    public init(
        sampleCount: Int, excludedCacheHits: Int, excludedRetried: Int, excludedColdStarts: Int, excludedErrors: Int,
        ttftMs: DistributionSummary?, totalMs: DistributionSummary?, decodeTokensPerSecond: DistributionSummary?,
        coldStartTotalMs: DistributionSummary?, queueingMs: DistributionSummary? = nil
    ) {
        self.sampleCount = sampleCount
        self.excludedCacheHits = excludedCacheHits
        self.excludedRetried = excludedRetried
        self.excludedColdStarts = excludedColdStarts
        self.excludedErrors = excludedErrors
        self.ttftMs = ttftMs
        self.totalMs = totalMs
        self.decodeTokensPerSecond = decodeTokensPerSecond
        self.coldStartTotalMs = coldStartTotalMs
        self.queueingMs = queueingMs
    }
}

/// Order statistics of a sample (type-7 percentiles) with its mean and standard error.
public struct DistributionSummary: Sendable, Hashable, Codable {
    /// Number of values.
    public var count: Int
    /// Arithmetic mean.
    public var mean: Double
    /// Standard error of the mean; nil with one value.
    public var standardError: Double?
    /// Smallest value.
    public var min: Double
    /// Median.
    public var p50: Double
    /// 95th percentile.
    public var p95: Double
    /// 99th percentile.
    public var p99: Double
    /// Largest value.
    public var max: Double
    /// The quantiles at 0, 0.05, …, 1 (21 values) for distribution charts; nil when not requested.
    public var quantiles: [Double]?

    /// The summary of `values` (NaN dropped), or nil when none is left.
    public init?(_ values: [Double], withQuantiles: Bool = false) {
        guard let percentiles = Percentiles(values) else { return nil }
        let moments = SampleMoments(percentiles.sorted)
        count = percentiles.count
        mean = moments.mean
        standardError = moments.standardErrorOfMean
        min = percentiles.minimum
        p50 = percentiles.p50
        p95 = percentiles.p95
        p99 = percentiles.p99
        max = percentiles.maximum
        quantiles = withQuantiles ? (0...20).map { percentiles.quantile(Double($0) / 20) } : nil
    }
}

/// Token counts of one arm.
public struct TokenSummary: Sendable, Hashable, Codable {
    /// Results that reported (or estimated) usage.
    public var resultsWithUsage: Int
    /// Of those, how many were estimated from text length rather than reported by the provider.
    public var estimatedCount: Int
    /// Sum of prompt (input) tokens.
    public var promptTokens: Int
    /// Sum of completion (output) tokens.
    public var completionTokens: Int
    /// Mean prompt tokens per result with usage; nil without any.
    public var meanPromptTokens: Double?
    /// Mean completion tokens per result with usage; nil without any.
    public var meanCompletionTokens: Double?

    /// Token counts; see the properties.
    public init(resultsWithUsage: Int, estimatedCount: Int, promptTokens: Int, completionTokens: Int) {
        self.resultsWithUsage = resultsWithUsage
        self.estimatedCount = estimatedCount
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        meanPromptTokens = resultsWithUsage > 0 ? Double(promptTokens) / Double(resultsWithUsage) : nil
        meanCompletionTokens = resultsWithUsage > 0 ? Double(completionTokens) / Double(resultsWithUsage) : nil
    }
}

/// Cost of one arm in US dollars; cache hits carry the cost of the original call, so this is what the requests
/// cost (or would have cost) without the cache.
public struct CostSummary: Sendable, Hashable, Codable {
    /// Results with a price.
    public var pricedCount: Int
    /// Sum of their cost.
    public var totalUSD: Double
    /// 1,000 × mean cost per priced result.
    public var per1kRequestsUSD: Double

    /// A cost summary over `pricedCount` priced results.
    public init(pricedCount: Int, totalUSD: Double) {
        self.pricedCount = pricedCount
        self.totalUSD = totalUSD
        per1kRequestsUSD = pricedCount > 0 ? totalUSD / Double(pricedCount) * 1000 : 0
    }
}

extension ProportionSummary {
    /// A rate and interval computed elsewhere (a ratio of per-install sums with its delta-method interval) over
    /// `units` units, with the raw counts beside it.
    public init(passed: Int, total: Int, rate: Double, lower: Double, upper: Double, units: Int) {
        self.passed = passed
        self.total = total
        self.rate = rate
        self.lower = lower
        self.upper = upper
        self.units = units
    }
}
