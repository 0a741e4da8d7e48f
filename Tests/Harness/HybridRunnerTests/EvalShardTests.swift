import HybridConfig
import HybridCore
import HybridReport
import HybridRunner
import HybridStore
import Testing

/// `--shard I/N`: every key in exactly one shard, shards balanced whatever the dataset's order, and every key kept
/// in its shard when the dataset grows.
@Suite struct EvalShardTests {
    static let arms = ["concise@a", "concise@b", "bullet@a"]

    /// Shard sizes over `cases` random case ids × 3 arms × 2 repeats.
    static func sizes(caseIDs: [String], count: Int) throws -> [Int] {
        let shards = try (1...count).map { try EvalShard(index: $0, count: count) }
        var sizes = Array(repeating: 0, count: count)
        for caseID in caseIDs {
            for arm in arms {
                for repeatIndex in 0..<2 {
                    let owners = shards.indices.filter { shards[$0].contains(caseID: caseID, armID: arm, repeatIndex: repeatIndex) }
                    try #require(owners.count == 1, "\(caseID)/\(arm)#\(repeatIndex) is in shards \(owners)")
                    sizes[owners[0]] += 1
                }
            }
        }
        return sizes
    }

    /// Seeded draws (a property test without the dependency): random case id shapes, shard counts, datasets grown.
    @Test func everyKeyIsInOneShardAndShardsStayBalancedAsTheDatasetGrows() throws {
        var generator = SplitMix64(seed: 16)
        for _ in 0..<6 {
            let count = Int(generator.next() % 7) + 2
            let prefix = ["case-", "k", "q_", ""][Int(generator.next() % 4)]
            let before = (0..<Int(200 + generator.next() % 400)).map { _ in "\(prefix)\(generator.next() % 1_000_000)" }
            let grown = before + (0..<Int(200 + generator.next() % 400)).map { _ in "new-\(generator.next())" }
            for ids in [before, grown] {
                let sizes = try Self.sizes(caseIDs: Array(Set(ids)), count: count)
                let mean = Double(sizes.reduce(0, +)) / Double(count)
                // Binomial spread: 5 standard deviations is far beyond chance and well inside "balanced".
                let slack = 5 * (mean * (1 - 1 / Double(count))).squareRoot()
                #expect(sizes.allSatisfy { abs(Double($0) - mean) <= slack }, "\(count) shards of \(ids.count * 6) keys: \(sizes)")
            }
        }
    }

    /// The slice does not depend on the dataset's order or size: the shard's keys of a plan over the first cases
    /// are exactly its keys of the grown plan restricted to those cases, and the shards partition the plan.
    @Test func shardsPartitionAPlanAndKeepTheirKeysAsCasesAreAddedOrReordered() throws {
        let document = try EvalRunnerTests.config(models: ["a": "http://127.0.0.1:9/v1", "b": "http://127.0.0.1:9/v1"])
        let cases = (1...40).map { EvalCase(id: "c\($0)", input: ["input": "Case \($0)."], line: $0) }
        func keys(_ cases: [EvalCase], shard: EvalShard?) throws -> Set<String> {
            var plan = try EvalPlan(
                runID: "r", feature: "summarize", config: document, configHash: "h", dataset: EvalRunnerTests.dataset(cases), repeats: 2)
            plan.shard = shard
            return Set(plan.workItems.map { "\(plan.dataset.cases[$0.caseIndex].id)|\($0.arm.id)|\($0.repeatIndex)" })
        }
        let all = try keys(cases, shard: nil)
        let shards = try (1...3).map { try keys(cases, shard: EvalShard(index: $0, count: 3)) }
        #expect(shards.reduce(0) { $0 + $1.count } == all.count)
        #expect(shards.reduce(Set<String>()) { $0.union($1) } == all)
        let first = try keys(Array(cases.prefix(25)), shard: EvalShard(index: 2, count: 3))
        #expect(first == shards[1].filter { Int($0.split(separator: "|")[0].dropFirst())! <= 25 })
        #expect(try keys(cases.reversed(), shard: EvalShard(index: 2, count: 3)) == shards[1])
    }

    @Test(arguments: ["0/2", "3/2", "1/0", "2", "a/b", "1/2/3", "-1/2"])
    func malformedShardsAreRefusedWithTheFormToUse(text: String) {
        #expect(throws: EvalShard.InvalidShard.self) { try EvalShard(parsing: text) }
        #expect((try? EvalShard(parsing: " 2 / 3 "))?.description == "2/3")
    }
}
