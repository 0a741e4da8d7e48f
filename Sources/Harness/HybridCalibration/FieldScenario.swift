public import HybridReport

/// A field experiment as teams run one: who the installs are, when they arrive, how often the report is read, what
/// the treatment does (nothing, for a null scenario) and what went before. ``FieldPopulation`` draws its events;
/// ``FieldExperiment`` reads them through the real report and `recommend` code.
public struct FieldScenario: Sendable {
    /// The scenario's name in the calibration table.
    public var name: String
    /// Installs in the experiment.
    public var installs: Int
    /// Days the experiment runs.
    public var days: Int
    /// Reports read per day (8: every 3 hours).
    public var looksPerDay = 1
    /// Installs arrive evenly over this many days; 0: all are there from the first day.
    public var arrivalDays = 0.0
    /// Whether an install's usage is linked to its metrics: heavy users fail the checks more often and have faster
    /// devices, as real heavy users do. Otherwise usage, pass rate and device speed are independent.
    public var linkedUsage = false
    /// The share of installs that are heavy (kiosks, test devices, power users), sending `heavyMultiple` times the
    /// usage they would otherwise have.
    public var heavyShare = 0.0
    public var heavyMultiple = 100.0
    /// Heavy installs placed by hand: this many treated installs sending `fixedHeavyEvents` events over the run.
    public var fixedHeavyTreated = 0
    public var fixedHeavyEvents = 4_000.0
    /// Installs alternate between the arms (exactly half each) instead of being drawn: small experiments with exactly
    /// the minimum installs per arm.
    public var alternateArms = false
    /// What the treatment changes; all zero for a null scenario.
    public var effect = Effect()
    /// Days of events before any rollout (clean CUPED covariates for every install alike).
    public var prePeriodDays = 0
    /// An earlier config version that ran the same rollout seed with this effect (an iterated experiment).
    public var earlierRollout: Effect?
    /// Days at the start in which half the treated installs' uploads are lost (a sample-ratio incident), fixed after.
    public var incidentDays = 0
    /// No rollout: every install is served the same route; segments are then judged against the policy's floors.
    public var segmentsOnly = false
    /// Per-install pass rate forced for every install (a segment exactly at a floor); nil: drawn per install.
    public var fixedPassRate: Double?
    /// One install in the segment `older` sending this many events over the run at a pass rate of 0.35 (a kiosk).
    public var kioskEvents: Double?
    /// `recommend --by deviceClass` after each look.
    public var recommendsSegments = false
    /// The power the row must reach; nil for none.
    public var powerTarget: Double?
    /// The share of its anchor's power (the fixed-horizon test at the last look) the row must reach; nil for none.
    public var anchorShareTarget: Double?
    /// A planned-horizon design the report is read under (each reading at its time since the run's first event);
    /// nil: the always-valid default. With one, the row also gives the fixed-horizon z-test's power at the last look
    /// on the same data (the anchor a planned design is measured against).
    public var design: FieldDesign?

    /// What a treatment does to a treated install.
    public struct Effect: Sendable, Hashable {
        /// Added to each install's pass probability.
        public var adherence = 0.0
        /// Latency multiplied by 1 + this.
        public var latency = 0.0
        /// Usage multiplied by 1 + this: a change of how much people use the feature, not of its rates.
        public var usage = 0.0
        /// Added to each install's share of failed requests (a staged rollout's regression).
        public var errorRate = 0.0

        /// An effect; zero everywhere by default.
        public init(adherence: Double = 0, latency: Double = 0, usage: Double = 0, errorRate: Double = 0) {
            self.adherence = adherence
            self.latency = latency
            self.usage = usage
            self.errorRate = errorRate
        }

        /// True when the treatment changes a rate the report judges (a usage change alone does not).
        public var changesRates: Bool { adherence != 0 || latency != 0 || errorRate != 0 }
    }

    /// A scenario; see the properties for the rest.
    public init(name: String, installs: Int, days: Int) {
        self.name = name
        self.installs = installs
        self.days = days
    }

    /// Whether the truth is "no difference" for every decision the loop can make.
    public var isNull: Bool { !effect.changesRates }

    /// The decision a powered scenario should reach: (metric, verdict).
    public var expected: (metric: String, verdict: String)? {
        if effect.adherence > 0 { return ("adherence", "better") }
        if effect.adherence < 0 { return ("adherence", "worse") }
        if effect.latency > 0 { return ("latencyMeanMs", "worse") }
        if effect.latency < 0 { return ("latencyMeanMs", "better") }
        return nil
    }
}
