@testable import HybridConfig
import HybridConfigTools
import Testing

@Suite("Rollout bucketing")
struct RolloutBucketingTests {
    static let ids = (0..<100_000).map { "install-\($0)" }
    static let buckets = ids.map { RolloutBucketing.bucket(seed: "seed-1", feature: "summarize", installId: $0) }

    @Test(arguments: [1.0, 10.0, 25.0, 50.0, 90.0])
    func splitIsWithinOnePercentOfTheRequest(percentage: Double) {
        let threshold = RolloutBucketing.threshold(percentage: percentage)
        let inTreatment = Self.buckets.filter { $0 < threshold }.count
        let share = Double(inTreatment) / Double(Self.ids.count) * 100
        #expect(abs(share - percentage) <= 1.0, "\(share)% for a requested \(percentage)%")
    }

    @Test func sameIdSameBucketEveryTime() {
        for (id, bucket) in zip(Self.ids.prefix(1000), Self.buckets) {
            #expect(RolloutBucketing.bucket(seed: "seed-1", feature: "summarize", installId: id) == bucket)
        }
        // Pinned so a change of hash or formula (which would reshuffle every install) fails loudly.
        #expect(RolloutBucketing.bucket(seed: "seed-1", feature: "summarize", installId: "install-0") == Self.pinnedBucket)
    }

    // Computed independently: python3 -c "import hashlib; print(int.from_bytes(hashlib.sha256(b'seed-1:summarize:install-0').digest()[:8], 'big') % 10000)"
    static let pinnedBucket = 3589

    @Test func raisingThePercentageOnlyAddsInstalls() {
        let low = RolloutBucketing.threshold(percentage: 20)
        let high = RolloutBucketing.threshold(percentage: 35)
        let before = Set(Self.ids.indices.filter { Self.buckets[$0] < low })
        let after = Set(Self.ids.indices.filter { Self.buckets[$0] < high })
        #expect(before.isSubset(of: after))
        #expect(after.count > before.count)
    }

    @Test func seedAndFeatureSplitIndependently() {
        let other = Self.ids.prefix(10_000).map { RolloutBucketing.bucket(seed: "seed-2", feature: "summarize", installId: $0) }
        let both = zip(Self.buckets.prefix(10_000), other).filter { $0 < 5000 && $1 < 5000 }.count
        // Independent 50 % splits overlap on about a quarter of installs.
        #expect((2000...3000).contains(both))
    }

    @Test func assignmentUsesArmOverridesAndDefaults() throws {
        var document = Fixtures.bundled().document
        document.rollouts["summarize"] = RolloutConfig(seed: "s", arms: [
            RolloutArm(name: "bullet", percentage: 30, variant: "bullet"),
            RolloutArm(name: "cloud-first", percentage: 20, priority: ["gemini-flash", "local-smollm2"]),
        ])
        var counts: [String: Int] = [:]
        for id in Self.ids.prefix(20_000) {
            let a = try #require(document.assignment(feature: "summarize", installId: id))
            counts[a.arm ?? "control", default: 0] += 1
            switch a.arm {
            case "bullet": #expect(a.variant == "bullet" && a.priority == document.features["summarize"]?.priority)
            case "cloud-first": #expect(a.variant == "concise" && a.priority == ["gemini-flash", "local-smollm2"])
            default: #expect(a.variant == "concise")
            }
        }
        #expect(abs(Double(counts["bullet", default: 0]) / 200 - 30) <= 1.5)
        #expect(abs(Double(counts["cloud-first", default: 0]) / 200 - 20) <= 1.5)
        #expect(document.assignment(feature: "nope", installId: "x") == nil)
    }
}
