import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import HybridReport
import Testing

/// #68 item 3: a rollout's planned-horizon design, validated with errors naming the key.
@Suite("Rollout design validation")
struct RolloutDesignValidationTests {
    static func errors(_ design: JSONValue) -> [ConfigIssue] {
        Fixtures.errors(Fixtures.config { $0.set(["rollouts", "summarize", "design"], design) })
    }

    @Test("a planned design with a horizon, looks and a known spending function loads; kind defaults to alwaysValid")
    func validDesignsLoad() throws {
        let loaded = try ConfigValidator.load(Fixtures.config {
            $0.set(["rollouts", "summarize", "design"], ["kind": "planned", "horizon": ["days": 7], "looks": 7, "spending": "pocock"])
        }).document.rollouts["summarize"]?.design
        #expect(loaded == RolloutDesign(kind: "planned", horizon: .init(days: 7), looks: 7, spending: "pocock"))
        let listed = try ConfigValidator.load(Fixtures.config {
            $0.set(["rollouts", "summarize", "design"], ["kind": "planned", "horizon": ["installs": 200], "lookInstalls": [50, 120, 200]])
        })
        #expect(listed.warnings.isEmpty && listed.document.rollouts["summarize"]?.design?.lookInstalls == [50, 120, 200])
        let plain = try ConfigValidator.load(Fixtures.config { $0.set(["rollouts", "summarize", "design"], [:]) })
        #expect(plain.document.rollouts["summarize"]?.design?.kind == "alwaysValid")
    }

    @Test("an unknown spending function or kind is an error at its key with a did-you-mean")
    func unknownNames() throws {
        let spending = Self.errors(["kind": "planned", "horizon": ["days": 7], "looks": 7, "spending": "obrienFlemming"])
        #expect(spending.map(\.path) == ["rollouts.summarize.design.spending"], "\(spending)")
        #expect(spending.first?.message.contains("did you mean \"obrienFleming\"") == true, "\(spending)")
        let kind = Self.errors(["kind": "plannned", "horizon": ["days": 7], "looks": 7])
        #expect(kind.map(\.path) == ["rollouts.summarize.design.kind"] && kind.first?.message.contains("\"planned\"") == true, "\(kind)")
    }

    @Test("an unknown primary metric is an error at its key; the config's list of metrics is the field report's")
    func primaryMetric() throws {
        let unknown = Self.errors(["kind": "planned", "horizon": ["days": 7], "looks": 7, "primaryMetric": "adherance"])
        #expect(unknown.map(\.path) == ["rollouts.summarize.design.primaryMetric"], "\(unknown)")
        #expect(unknown.first?.message.contains("did you mean \"adherence\"") == true, "\(unknown)")
        #expect(Self.errors(["kind": "planned", "horizon": ["days": 7], "looks": 7, "primaryMetric": "latencyMeanMs"]).isEmpty)
        #expect(RolloutDesign.primaryMetrics == FieldDesign.metrics)
        // The docs' example loads without a warning (the key is known to the unknown-key check too).
        let documented = try ConfigValidator.load(Fixtures.config {
            $0.set(["rollouts", "summarize", "design"], [
                "kind": "planned", "horizon": ["days": 7], "looks": 7, "spending": "obrienFleming", "primaryMetric": "adherence",
            ])
        })
        #expect(documented.warnings.isEmpty, "\(documented.warnings)")
        #expect(documented.document.rollouts["summarize"]?.design?.primaryMetric == "adherence")
        let many = Self.errors(["kind": "planned", "horizon": ["days": 30], "looks": 720])
        #expect(many.map(\.path) == ["rollouts.summarize.design.looks"] && many.first?.message.contains("at most 100") == true, "\(many)")
    }

    @Test("looks past the horizon, looks below 1, a horizon of 0 or of both kinds, a list in the wrong unit: errors at their paths")
    func badPlans() throws {
        let past = Self.errors(["kind": "planned", "horizon": ["days": 7], "lookDays": [1, 3, 9]])
        #expect(past.map(\.path) == ["rollouts.summarize.design.lookDays[2]"], "\(past)")
        #expect(past.first?.message == "look 3 at day 9 is past the horizon of 7 days")
        #expect(Self.errors(["kind": "planned", "horizon": ["days": 7], "looks": 0]).map(\.path) == ["rollouts.summarize.design.looks"])
        #expect(Self.errors(["kind": "planned", "horizon": ["days": 0], "looks": 7]).map(\.path) == ["rollouts.summarize.design.horizon.days"])
        #expect(Self.errors(["kind": "planned", "horizon": ["installs": -5], "looks": 7]).map(\.path) == ["rollouts.summarize.design.horizon.installs"])
        #expect(Self.errors(["kind": "planned", "horizon": ["days": 7, "installs": 200], "looks": 7]).map(\.path) == ["rollouts.summarize.design.horizon"])
        #expect(Self.errors(["kind": "planned", "looks": 7]).map(\.path) == ["rollouts.summarize.design.horizon"])
        #expect(Self.errors(["kind": "planned", "horizon": ["days": 7]]).map(\.path) == ["rollouts.summarize.design.looks"])
        #expect(Self.errors(["kind": "planned", "horizon": ["installs": 200], "lookDays": [1]]).map(\.path) == ["rollouts.summarize.design.lookDays", "rollouts.summarize.design.looks"])
        #expect(Self.errors(["kind": "planned", "horizon": ["installs": 200], "lookInstalls": [100, 50]]).map(\.path)
            == ["rollouts.summarize.design.lookInstalls[1]"])
        #expect(Self.errors(["kind": "alwaysValid", "looks": 3]).map(\.path) == ["rollouts.summarize.design.kind"])
    }
}
