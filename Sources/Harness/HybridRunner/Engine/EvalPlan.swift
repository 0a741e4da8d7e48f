public import HybridConfig
import HybridCore

/// Everything a run does, fixed before the first request: arms, cases, repeats, order and pricing.
///
/// Built from the config in force so a resumed run can rebuild the same plan from its stored arguments.
public struct EvalPlan: Sendable {
    /// Id of the run; results are stored under it.
    public var runID: String
    /// Name of the feature evaluated.
    public var feature: String
    /// The feature's config as it was when the plan was built.
    public var featureConfig: FeatureConfig
    /// Every (variant, model) pair to run.
    public var arms: [EvalArm]
    /// The cases, already cut to `limit`.
    public var dataset: Dataset
    /// How many times each case runs on each arm.
    public var repeats: Int
    /// Seed of the work-item shuffle, so a resumed run uses the same order.
    public var seed: UInt64
    /// Price table of every arm's model with prices in the config in force (a model without them has an unknown cost).
    public var pricing: [String: ModelPricing]
    /// Each arm's model as the config in force declares it (its provider and model name for the run's spans).
    public var models: [String: ModelConfig]
    /// Version of the config in force.
    public var configVersion: Int
    /// Content hash of the config in force, stored with every result.
    public var configHash: String
    /// The slice of keys this process runs (`--shard I/N`); nil runs them all. The run still records the whole plan.
    public var shard: EvalShard?

    /// The plan for `feature` over `dataset`: every variant on every model in the feature's priority order,
    /// narrowed by `models` / `variants` when given, the first `limit` cases, `repeats` times each.
    public init(
        runID: String,
        feature: String,
        config: HybridConfigDocument,
        configHash: String,
        dataset: Dataset,
        models: [String]? = nil,
        variants: [String]? = nil,
        repeats: Int = 1,
        limit: Int? = nil,
        seed: UInt64 = 42
    ) throws(EvalError) {
        guard let featureConfig = config.features[feature] else {
            throw .unknownFeature(feature, known: Array(config.features.keys))
        }
        let modelIDs = models ?? featureConfig.priority
        for id in modelIDs where config.models[id] == nil {
            throw .unknownSelection(kind: "model", name: id, known: config.models.keys.sorted())
        }
        let variantNames = variants ?? featureConfig.variants.keys.sorted()
        for name in variantNames where featureConfig.variants[name] == nil {
            throw .unknownSelection(kind: "variant", name: name, known: featureConfig.variants.keys.sorted())
        }
        guard !modelIDs.isEmpty, !variantNames.isEmpty else { throw .emptyPlan("no model or no variant selected") }
        var dataset = dataset
        if let limit { dataset.limit(to: limit) }
        guard dataset.count > 0 else { throw .emptyPlan("the dataset has no cases after --limit") }
        // A streamed dataset is checked by `validateCases()` while the run sends; a loaded one here.
        if !dataset.isStreamed {
            let variables = Self.variables(featureConfig, variant: variantNames[0])
            for item in dataset.cases {
                try Self.checkRenders(item, variables: variables, featureConfig, feature: feature, variant: variantNames[0])
            }
        }
        self.runID = runID
        self.feature = feature
        self.featureConfig = featureConfig
        self.arms = variantNames.flatMap { variant in
            modelIDs.map { EvalArm(feature: feature, variant: variant, modelID: $0, tier: config.models[$0]!.tier) }
        }
        self.dataset = dataset
        self.repeats = max(1, repeats)
        self.seed = seed
        self.pricing = Dictionary(uniqueKeysWithValues: modelIDs.compactMap { id in config.models[id]!.pricing.map { (id, $0) } })
        self.models = Dictionary(uniqueKeysWithValues: modelIDs.map { ($0, config.models[$0]!) })
        self.configVersion = config.version
        self.configHash = configHash
    }

    /// Rendering every case up front cost start-up time in proportion to the dataset; checking that each case
    /// supplies the template's variables is enough, and a case that does not is rendered for the exact error.
    private static func checkRenders(
        _ item: EvalCase, variables: [String]?, _ featureConfig: FeatureConfig, feature: String, variant: String
    ) throws(EvalError) {
        // A case with its own turns sends them instead of the template.
        if item.hasOwnMessages || variables?.allSatisfy({ item.input[$0] != nil }) ?? false { return }
        do {
            _ = try featureConfig.render(name: feature, variant: variant, input: item.input)
        } catch {
            throw .renderFailed(caseID: item.id, line: item.line, detail: error.description)
        }
    }

    /// Checks a streamed dataset whole (bad lines, duplicate ids, cases the template cannot render): what a loaded
    /// dataset had checked before the plan was made. Nothing to do for a loaded dataset.
    public func validateCases() async throws(EvalError) {
        guard dataset.isStreamed, let variant = arms.first?.variant else { return }
        let variables = Self.variables(featureConfig, variant: variant)
        let featureConfig = featureConfig
        let feature = feature
        try await dataset.validate { (item) throws(EvalError) in
            try Self.checkRenders(item, variables: variables, featureConfig, feature: feature, variant: variant)
        }
    }

    /// The variables the variant's template uses; nil when it has no parsable inline template.
    private static func variables(_ featureConfig: FeatureConfig, variant: String) -> [String]? {
        featureConfig.variants[variant]?.template.flatMap { try? PromptTemplate($0) }.map(\.variables)
    }

    /// One unit of work: a case on an arm, for one repeat.
    public struct WorkItem: Sendable, Hashable {
        /// Index of the case in the dataset (``Dataset/evalCase(at:)``).
        public var caseIndex: Int
        /// The arm to run the case on.
        public var arm: EvalArm
        /// Which repeat, from 0.
        public var repeatIndex: Int
    }

    /// Every (case, arm, repeat) of the shard (all of them without one) in a seeded shuffled order, so slow drift
    /// of a server (warming caches, other load) spreads over all arms instead of favouring the arm that ran first.
    public var workItems: [WorkItem] { Array(workOrder) }

    /// ``workItems`` at 4 bytes an item, decoded as they are used: what a run iterates.
    public var workOrder: WorkOrder {
        guard let shard else { return WorkOrder(caseCount: dataset.count, arms: arms, repeats: repeats, seed: seed) }
        // Only a shard needs the case id (on a streamed dataset, decoding the line); a bad line fails validation.
        // Items come case by case before the shuffle: each case is decoded once.
        var last: (index: Int, id: String)?
        return WorkOrder(caseCount: dataset.count, arms: arms, repeats: repeats, seed: seed) { [dataset] item in
            if last?.index != item.caseIndex { last = (item.caseIndex, (try? dataset.evalCase(at: item.caseIndex).id) ?? "") }
            return shard.contains(caseID: last!.id, armID: item.arm.id, repeatIndex: item.repeatIndex)
        }
    }

    /// Total results the run will store (every shard's together).
    public var plannedCount: Int { dataset.count * arms.count * repeats }
}

/// SplitMix64: a small, fast, seedable generator so a run's order and jitter are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
