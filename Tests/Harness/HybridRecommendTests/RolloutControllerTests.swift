import Foundation
import HybridCalibration
import HybridConfig
import HybridRecommend
import HybridStore
import Testing

/// The staged rollout's rule without I/O, over the field analysis of seeded installs (the calibration zoo's
/// population): what holds, what advances, what rolls back, and why.
@Suite("RolloutController")
struct RolloutControllerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let plan = RolloutPlan(stages: [10, 50, 100], minStageHours: 24, minInstallsPerArm: 100, guardrails: [.init(metric: .errorRate, tolerance: 0.01)])

    /// A day of events of 1,500 installs with the arm at 10 % (or at `share` of installs, to break the split).
    static func events(errorRate: Double = 0, arm percentage: Double = 10) -> [FieldEventRecord] {
        var scenario = FieldScenario(name: "controller", installs: 1_500, days: 1)
        scenario.effect = .init(errorRate: errorRate)
        var population = FieldPopulation(scenario, seed: 3)
        return population.stagedEvents(look: 0, percentage: percentage, version: 2)
    }

    static func state() -> RolloutState {
        RolloutState(feature: "summarize", arm: "treat", destination: "d", stage: 0, percentage: 10, stageVersion: 2, stageStartedAt: start)
    }

    static func look(_ events: [FieldEventRecord], hours: Double, plan: RolloutPlan = plan) -> RolloutController.Look {
        let state = state()
        return RolloutController(plan: plan).look(
            state: state, analysis: RolloutController.stageAnalysis(events, state: state), now: start.addingTimeInterval(hours * 3_600))
    }

    @Test("each test runs at α split over the stages below 100 % and the guardrails")
    func alphaIsSplit() {
        let plan = RolloutPlan(stages: [1, 5, 25, 50, 100], guardrails: [.init(metric: .errorRate), .init(metric: .adherence)])
        #expect(abs(RolloutController(plan: plan).testAlpha - 0.05 / 8) < 1e-15)
    }

    @Test("a harmless stage holds for its time, then advances; its figures are kept")
    func harmlessStageHoldsThenAdvances() throws {
        let events = Self.events()
        let early = Self.look(events, hours: 5)
        #expect(early.decision.action == .hold && early.decision.reason.contains("5.0 h of 24.0 h"), "\(early.decision.reason)")
        #expect(early.decision.guardrails.map(\.metric) == ["errorRate"] && !early.decision.guardrails[0].breached)
        #expect(early.bounds["errorRate.lower"] != nil)
        let due = Self.look(events, hours: 25)
        #expect(due.decision.action == .advance && due.decision.percentage == 50 && due.decision.stage == 1, "\(due.decision.reason)")
    }

    @Test("too few installs: holds and says how many more each group needs")
    func holdsForInstalls() {
        let plan = RolloutPlan(stages: [10, 50, 100], minStageHours: 0, minInstallsPerArm: 400, guardrails: [.init(metric: .errorRate)])
        let look = Self.look(Self.events(), hours: 1, plan: plan)
        #expect(look.decision.action == .hold && look.decision.reason.contains("more installs in the arm"), "\(look.decision.reason)")
        #expect(look.decision.armInstalls > 100 && look.decision.armInstalls < 400)
    }

    @Test("a regression beyond tolerance rolls back at the first look that shows it, before the stage's time is up")
    func regressionRollsBack() {
        let look = Self.look(Self.events(errorRate: 0.15), hours: 2)
        #expect(look.decision.action == .rollBack && look.decision.percentage == 0, "\(look.decision.reason)")
        let figure = look.decision.guardrails.first
        #expect(figure?.breached == true && (figure?.lower ?? 0) > 0.01)
    }

    @Test("a broken split holds, whatever the guardrails say")
    func sampleRatioMismatchHolds() {
        let look = Self.look(Self.events(errorRate: 0.15, arm: 30), hours: 30)
        #expect(look.decision.action == .hold && look.decision.reason.contains("sample ratio"), "\(look.decision.reason)")
    }

    @Test("a stage's interval only narrows over its looks: a later, wider look keeps the earlier bound")
    func boundsRunOverLooks() {
        var state = Self.state()
        state.bounds = ["errorRate.lower": 0.02, "errorRate.upper": 0.03]
        let look = RolloutController(plan: Self.plan).look(
            state: state, analysis: RolloutController.stageAnalysis(Self.events(), state: state), now: Self.start.addingTimeInterval(3_600))
        #expect(look.decision.action == .rollBack, "an earlier look's lower bound above the tolerance stands: \(look.decision.reason)")
    }
}
