import Foundation
import HybridReport
import HybridStore

/// Seeded field experiments for testing the field report as a statistic: installs that differ from each other the
/// way real ones do (light and heavy users, fast and slow devices, users whose inputs often fail the checks), half
/// of them in a rollout arm `treat`, each sending events day by day.
struct FieldSimulation {
    /// What the treatment changes; zero everywhere for an A/A.
    struct Effect {
        /// Added to each install's pass probability.
        var adherence = 0.0
        /// Latency multiplied by 1 + this.
        var latency = 0.0
    }

    struct Install {
        var id: String
        var treated: Bool
        var eventsPerDay: Double
        var passRate: Double
        var speedMs: Double
        var fallbackRate: Double
        var errorRate: Double
        var deviceClass: String
    }

    var installs: [Install]
    var effect: Effect
    private var rng: SplitMix64
    private var nextEvent = 0

    init(installs count: Int, effect: Effect = Effect(), seed: UInt64) {
        rng = SplitMix64(seed: seed)
        self.effect = effect
        installs = []
        for index in 0..<count {
            let hard = uniform() < 0.15
            let slow = uniform() < 0.4
            installs.append(Install(
                id: String(format: "install-%05d", index), treated: uniform() < 0.5,
                eventsPerDay: 2.5 * Foundation.exp(normal()),
                passRate: Self.logistic(hard ? -0.4 + 0.6 * normal() : 1.0 + 0.5 * normal()),
                speedMs: (slow ? 1_400 : 700) * Foundation.exp(0.35 * normal()),
                fallbackRate: 0.12 * uniform(), errorRate: 0.04 * uniform(),
                deviceClass: slow ? "older" : "recent"))
        }
    }

    /// What a treated install's arm was in an earlier version: its variant and the effect it had then.
    struct EarlierArm {
        var variant: String
        var effect: Effect
    }

    /// One day of events of every install, under config `version` (the pre-period is an earlier version, where no
    /// install is treated yet unless `earlierArm` says the rollout ran then too, with the same seed).
    mutating func day(_ day: Int, version: Int = 2, earlierArm: EarlierArm? = nil) -> [FieldEventRecord] {
        var events: [FieldEventRecord] = []
        for install in installs {
            let armed = install.treated && (version == 2 || earlierArm != nil)
            let effect = version == 2 ? self.effect : earlierArm?.effect ?? Effect()
            let variant = version == 2 || !install.treated ? "concise" : earlierArm?.variant ?? "concise"
            for _ in 0..<poisson(install.eventsPerDay) {
                events.append(event(install, armed: armed, effect: effect, variant: variant, day: day, version: version))
            }
        }
        return events
    }

    /// `days` days of events at version 1, before the experiment; with `earlierArm`, the rollout already ran then
    /// (the same installs in `treat`, with that arm's variant and effect).
    mutating func prePeriod(days: Int, earlierArm: EarlierArm? = nil) -> [FieldEventRecord] {
        (0..<days).flatMap { day(-1 - $0, version: 1, earlierArm: earlierArm) }
    }

    private mutating func event(
        _ install: Install, armed: Bool, effect: Effect, variant: String, day: Int, version: Int
    ) -> FieldEventRecord {
        nextEvent += 1
        let treated = armed
        let failed = uniform() < install.errorRate
        let passes = uniform() < min(1, max(0, install.passRate + (treated ? effect.adherence : 0)))
        let fellBack = uniform() < install.fallbackRate
        let latency = install.speedMs * (treated ? 1 + effect.latency : 1) * Foundation.exp(0.3 * normal())
        return FieldEventRecord(
            eventID: "e\(nextEvent)", occurredAt: Date(timeIntervalSince1970: Double(86_400 * (day + 10))),
            installID: install.id, feature: "summarize", configVersion: version,
            rolloutArm: armed ? "treat" : nil, bucket: nil, variant: variant,
            servedBy: fellBack ? "cloud" : "local", servedTier: fellBack ? "third-party" : "on-device",
            outcome: failed ? "failed" : "served", errorKind: failed ? "timeout" : nil, attemptCount: fellBack ? 2 : 1,
            fellBack: fellBack, ttftMs: failed ? nil : latency * 0.3, latencyMs: failed ? 30_000 : latency,
            inputTokens: 100, outputTokens: 40, tokensEstimated: false, costUSD: fellBack ? 0.002 : 0.0002,
            checksTotal: 1, failedChecks: passes ? [] : ["max_words"], cacheHit: false,
            labels: ["deviceClass": install.deviceClass])
    }

    /// The adherence difference treat − default the effect causes in expectation: events weigh by rate, failed
    /// requests never adhere.
    var expectedAdherenceDifference: Double {
        let weights = installs.map { $0.eventsPerDay * (1 - $0.errorRate) }
        let total = installs.reduce(0) { $0 + $1.eventsPerDay }
        let gained = zip(installs, weights).reduce(0.0) { sum, pair in
            sum + pair.1 * (min(1, pair.0.passRate + effect.adherence) - pair.0.passRate)
        }
        return gained / total
    }

    /// The mean-latency difference treat − default the effect causes in expectation.
    var expectedLatencyDifference: Double {
        let weights = installs.map { $0.eventsPerDay * (1 - $0.errorRate) }
        let mean = zip(installs, weights).reduce(0.0) { $0 + $1.1 * $1.0.speedMs } / weights.reduce(0, +)
        return mean * Foundation.exp(0.045) * effect.latency
    }

    private mutating func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }

    private mutating func normal() -> Double {
        let u = max(uniform(), 1e-12)
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * .pi * uniform())
    }

    /// Knuth's method below 60 events; above, the normal approximation (a heavy install sends thousands a day).
    private mutating func poisson(_ lambda: Double) -> Int {
        if lambda > 60 { return max(0, Int((lambda + lambda.squareRoot() * normal()).rounded())) }
        let limit = Foundation.exp(-lambda)
        var k = 0
        var product = uniform()
        while product > limit {
            k += 1
            product *= uniform()
        }
        return k
    }

    private static func logistic(_ x: Double) -> Double { 1 / (1 + Foundation.exp(-x)) }
}
