import Foundation

/// How a report is computed: statistics settings, which arms to compare, and how much case detail to keep.
public struct ReportOptions: Sendable, Hashable {
    /// Bootstrap resamples, seed and confidence level (default: 10,000 resamples, fixed seed, 95 %).
    public var bootstrap: BootstrapConfiguration
    /// Family-wise significance level after Holm correction.
    public var alpha: Double
    /// Power assumed for the minimum detectable effect.
    public var power: Double
    /// How many worst cases to list per arm.
    public var worstCasesPerArm: Int
    /// Pairs of arm ids to compare, in every feature that has both; nil compares the best arm with each other arm.
    public var pairs: [ArmPair]?
    /// Input and output texts of worst cases are cut to this many characters.
    public var textLimit: Int
    /// Cases listed per pair of arms in a feature's ``FeatureReport/sideBySide`` (the rest are counted).
    public var sideBySideCasesPerPair: Int
    /// What a repeated case's checks reduce to before any interval or test (`--reducer`; default: pass share).
    public var reducer: RepeatReducer

    /// Options; the defaults are what `hybrid report` uses.
    public init(
        bootstrap: BootstrapConfiguration = .standard,
        alpha: Double = 0.05,
        power: Double = 0.80,
        worstCasesPerArm: Int = 5,
        pairs: [ArmPair]? = nil,
        textLimit: Int = 1_000,
        sideBySideCasesPerPair: Int = 5,
        reducer: RepeatReducer = .mean
    ) {
        self.bootstrap = bootstrap
        self.alpha = alpha
        self.power = power
        self.worstCasesPerArm = worstCasesPerArm
        self.pairs = pairs
        self.textLimit = textLimit
        self.sideBySideCasesPerPair = max(0, sideBySideCasesPerPair)
        self.reducer = reducer
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    var settings: ReportSettings {
        ReportSettings(
            confidenceLevel: bootstrap.effectiveConfidenceLevel, alpha: alpha, power: power,
            bootstrapResamples: bootstrap.effectiveResamples, bootstrapSeed: Self.hex(bootstrap.seed),
            bootstrapMaximumResampledCount: bootstrap.maximumResampledCount
        )
    }
}

/// Two arm ids to compare, first − second.
public struct ArmPair: Sendable, Hashable {
    /// The first arm id.
    public var first: String
    /// The second arm id.
    public var second: String

    /// A pair of arm ids.
    public init(_ first: String, _ second: String) {
        self.first = first
        self.second = second
    }

    /// Parses `"A,B"` (comma-separated arm ids); nil unless there are exactly two non-empty ids.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        self.init(parts[0], parts[1])
    }
}

extension ReportOptions {
    /// The options a report was built with, recovered from its settings (for comparisons made later).
    public init(settings: ReportSettings) {
        self.init(
            bootstrap: BootstrapConfiguration(
                resamples: settings.bootstrapResamples,
                seed: UInt64(settings.bootstrapSeed, radix: 16) ?? BootstrapConfiguration.defaultSeed,
                confidenceLevel: settings.confidenceLevel,
                maximumResampledCount: settings.bootstrapMaximumResampledCount
            ),
            alpha: settings.alpha,
            power: settings.power
        )
    }
}
