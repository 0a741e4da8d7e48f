import Foundation
import HybridReport
public import HybridStore

/// The seeded installs of one ``FieldScenario`` and the events they send, look by look: installs that differ the way
/// real ones do (light and heavy users, fast and slow devices, users whose inputs often fail the checks), half of
/// them in the rollout arm `treat`.
public struct FieldPopulation: Sendable {
    /// One install and what it is like.
    struct Install: Sendable {
        var id: String
        var treated: Bool
        var eventsPerDay: Double
        var passRate: Double
        var speedMs: Double
        var fallbackRate: Double
        var errorRate: Double
        var deviceClass: String
        /// Day it starts sending events.
        var arrival: Double
        /// Its uploads are lost during a sample-ratio incident.
        var lostDuringIncident: Bool
    }

    /// The scenario; a change of its `effect` applies to the events drawn from then on (an effect that is fixed
    /// mid-experiment).
    public var scenario: FieldScenario
    var installs: [Install] = []
    private var rng: SplitMix64
    private var nextEvent = 0
    /// Each install's place in a staged rollout, in [0, 1); drawn from a generator of its own so the installs and
    /// their events are those of the same seed without a rollout.
    private var rolloutPlaces: [Double] = []

    /// The population of experiment `seed` of `scenario`.
    public init(_ scenario: FieldScenario, seed: UInt64) {
        self.scenario = scenario
        rng = SplitMix64(seed: seed)
        for index in 0..<scenario.installs { installs.append(drawInstall(index)) }
        placeHeavyInstalls()
        var places = SplitMix64(seed: seed ^ 0x5EED_0F5A_6E5F_0001)
        rolloutPlaces = installs.map { _ in places.nextUnit() }
    }

    private mutating func drawInstall(_ index: Int) -> Install {
        let usage = normal()
        let hard = uniform() < 0.15
        let slow = uniform() < 0.4
        var passLogit = hard ? -0.4 + 0.6 * normal() : 1.0 + 0.5 * normal()
        var speed = (slow ? 1_400.0 : 700.0) * exp(0.35 * normal())
        if scenario.linkedUsage {
            // Heavy users fail the checks more often and have faster devices.
            passLogit -= 0.8 * usage
            speed *= exp(-0.3 * usage)
        }
        let draw = uniform() < 0.5
        let treated = scenario.segmentsOnly ? false : scenario.alternateArms ? index % 2 == 1 : draw
        var perDay = 2.5 * exp(usage)
        if uniform() < scenario.heavyShare { perDay *= scenario.heavyMultiple }
        if treated { perDay *= 1 + scenario.effect.usage }
        return Install(
            id: String(format: "install-%05d", index), treated: treated, eventsPerDay: perDay,
            passRate: scenario.fixedPassRate ?? Self.logistic(passLogit), speedMs: speed,
            fallbackRate: 0.12 * uniform(),
            // A segment held exactly at a floor has no failed requests, which never adhere and would lower it.
            errorRate: scenario.fixedPassRate == nil ? 0.04 * uniform() : 0,
            deviceClass: scenario.segmentsOnly ? (index.isMultiple(of: 2) ? "older" : "recent") : (slow ? "older" : "recent"),
            arrival: scenario.arrivalDays > 0 ? uniform() * scenario.arrivalDays : 0,
            lostDuringIncident: treated && uniform() < 0.5)
    }

    private mutating func placeHeavyInstalls() {
        let treated = installs.indices.filter { installs[$0].treated }
        for index in treated.prefix(scenario.fixedHeavyTreated) {
            installs[index].eventsPerDay = scenario.fixedHeavyEvents / Double(scenario.days)
        }
        if let kiosk = scenario.kioskEvents, let index = installs.indices.first(where: { installs[$0].deviceClass == "older" }) {
            installs[index].eventsPerDay = kiosk / Double(scenario.days)
            installs[index].passRate = 0.35
        }
    }

    /// The events of look `look` (numbered from 0; each covers 1/`looksPerDay` of a day) at config version 2.
    public mutating func events(look: Int) -> [FieldEventRecord] {
        let span = 1 / Double(scenario.looksPerDay)
        let start = Double(look) * span
        var events: [FieldEventRecord] = []
        for install in installs {
            let active = min(start + span, Double(scenario.days)) - max(start, install.arrival)
            guard active > 0 else { continue }
            if install.lostDuringIncident && start < Double(scenario.incidentDays) { continue }
            for _ in 0..<poisson(install.eventsPerDay * active) {
                events.append(event(
                    install, at: start + active * uniform(), version: 2, arm: install.treated ? "treat" : nil,
                    bucket: scenario.segmentsOnly ? nil : 1, effect: install.treated ? scenario.effect : .init()))
            }
        }
        return events
    }

    /// The events of look `look` of a staged rollout at config `version`: an install is in the arm `treat` while
    /// its place in the rollout (a draw of its own, fixed for the experiment, as a bucket is) is below
    /// `percentage`, so raising the stage only adds installs to the arm.
    public mutating func stagedEvents(look: Int, percentage: Double, version: Int) -> [FieldEventRecord] {
        let span = 1 / Double(scenario.looksPerDay)
        let start = Double(look) * span
        var events: [FieldEventRecord] = []
        for (index, install) in installs.enumerated() {
            let treated = rolloutPlaces[index] < percentage / 100
            for _ in 0..<poisson(install.eventsPerDay * span) {
                events.append(event(
                    install, at: start + span * uniform(), version: version, arm: treated ? "treat" : nil, bucket: 1,
                    effect: treated ? scenario.effect : .init()))
            }
        }
        return events
    }

    /// The events before the experiment: `prePeriodDays` with no rollout, then (for an iterated experiment) a week
    /// of the earlier version's rollout with the same seed, so the same installs were treated.
    public mutating func prePeriod() -> [FieldEventRecord] {
        var events: [FieldEventRecord] = []
        let earlierDays = scenario.earlierRollout == nil ? 0 : 7
        for day in 0..<scenario.prePeriodDays {
            let at = -Double(earlierDays + scenario.prePeriodDays - day)
            for install in installs {
                for _ in 0..<poisson(install.eventsPerDay / (1 + (install.treated ? scenario.effect.usage : 0))) {
                    events.append(event(install, at: at + uniform(), version: 0, arm: nil, bucket: nil, effect: .init()))
                }
            }
        }
        guard let earlier = scenario.earlierRollout else { return events }
        for day in 0..<earlierDays {
            for install in installs {
                for _ in 0..<poisson(install.eventsPerDay) {
                    events.append(event(
                        install, at: -Double(earlierDays - day) + uniform(), version: 1, arm: install.treated ? "treat" : nil,
                        bucket: 1, effect: install.treated ? earlier : .init()))
                }
            }
        }
        return events
    }

    private mutating func event(
        _ install: Install, at day: Double, version: Int, arm: String?, bucket: Int?, effect: FieldScenario.Effect
    ) -> FieldEventRecord {
        nextEvent += 1
        let failed = uniform() < install.errorRate + effect.errorRate
        let passes = uniform() < min(1, max(0, install.passRate + effect.adherence))
        let fellBack = uniform() < install.fallbackRate
        let latency = install.speedMs * (1 + effect.latency) * exp(0.3 * normal())
        return FieldEventRecord(
            eventID: "e\(nextEvent)", occurredAt: Date(timeIntervalSince1970: 1_800_000_000 + day * 86_400),
            installID: install.id, feature: "summarize", configVersion: version, rolloutArm: arm, bucket: bucket,
            variant: "concise", servedBy: fellBack ? "cloud" : "local", servedTier: fellBack ? "third-party" : "on-device",
            outcome: failed ? "failed" : "served", errorKind: failed ? "timeout" : nil, attemptCount: fellBack ? 2 : 1,
            fellBack: fellBack, ttftMs: failed ? nil : latency * 0.3, latencyMs: failed ? 30_000 : latency,
            inputTokens: 100, outputTokens: 40, tokensEstimated: false, costUSD: fellBack ? 0.002 : 0.0002,
            checksTotal: 1, failedChecks: passes ? [] : ["max_words"], cacheHit: false,
            labels: ["deviceClass": install.deviceClass])
    }

    /// The adherence difference treat − control the effect causes in expectation: events weigh by rate, failed
    /// requests never adhere.
    public var expectedAdherenceDifference: Double {
        let weights = installs.map { $0.eventsPerDay * (1 - $0.errorRate) }
        let total = installs.reduce(0) { $0 + $1.eventsPerDay }
        let gained = zip(installs, weights).reduce(0.0) { sum, pair in
            sum + pair.1 * (min(1, pair.0.passRate + scenario.effect.adherence) - pair.0.passRate)
        }
        return gained / total
    }

    /// The mean-latency difference treat − control the effect causes in expectation.
    public var expectedLatencyDifference: Double {
        let weights = installs.map { $0.eventsPerDay * (1 - $0.errorRate) }
        let mean = zip(installs, weights).reduce(0.0) { $0 + $1.1 * $1.0.speedMs } / weights.reduce(0, +)
        return mean * exp(0.045) * scenario.effect.latency
    }

    private mutating func uniform() -> Double { rng.nextUnit() }

    private mutating func normal() -> Double {
        let u = max(uniform(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }

    /// Knuth's method below 60 events; above, the normal approximation (a heavy install sends thousands a day).
    private mutating func poisson(_ lambda: Double) -> Int {
        if lambda > 60 { return max(0, Int((lambda + lambda.squareRoot() * normal()).rounded())) }
        let limit = exp(-lambda)
        var k = 0
        var product = uniform()
        while product > limit {
            k += 1
            product *= uniform()
        }
        return k
    }

    private static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
}
