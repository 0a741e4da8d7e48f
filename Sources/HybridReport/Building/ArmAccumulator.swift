import HybridStore

/// Everything one arm of one feature needs from a streamed run, in compact per-case arrays (never whole records),
/// so a million-row report stays within a few hundred bytes per result.
struct ArmAccumulator {
    /// Per-case adherence codes while streaming; errors are resolved at the end, when it is known whether the
    /// feature has constraints at all. `unchecked` is a result checked against no constraint.
    enum AdherenceCode: Int8 {
        case absent = -1, failed = 0, passed = 1, errored = 2, unchecked = 3
    }

    let armID: String
    let promptVariant: String
    let modelID: String
    let tier: String

    var count = 0
    var errorCount = 0
    var errorsByKind: [String: Int] = [:]
    var cacheHits = 0
    var retried = 0
    var coldStarts = 0
    /// Results stored as `unavailable` without a call, and the first one's message (the reason).
    var unavailableCount = 0
    var unavailableMessage: String?

    var adherence: [AdherenceCode] = []
    var checkedPassed = 0
    var checkedTotal = 0
    /// Per constraint: (passed, checked) over non-error results; filled from `streamingCounts` by `reorder`.
    var constraintCounts: [String: (passed: Int, total: Int)] = [:]
    private var streamingCounts = NamedSlots<(passed: Int, total: Int)>()

    /// Per scorer, the per-case scores; filled from `streamingScores` by `reorder`.
    var scores: [String: [Double]] = [:]
    private var streamingScores = NamedSlots<[Double]>()
    var totalMs: [Double] = []
    var ttftMs: [Double] = []
    var decodeTokensPerSecond: [Double] = []
    var coldStartTotalMs: [Double] = []
    var queueingMs: [Double] = []
    var latencyExcluded = (cacheHits: 0, retried: 0, coldStarts: 0, errors: 0)

    var resultsWithUsage = 0
    var estimatedUsage = 0
    var promptTokens = 0
    var completionTokens = 0
    var pricedCount = 0
    var totalCostUSD = 0.0

    var worst: WorstCaseSelector

    init(record: ResultMeasures, worstCaseLimit: Int) {
        armID = record.key.armID
        promptVariant = record.promptVariant
        modelID = record.modelID
        tier = record.tier.rawValue
        worst = WorstCaseSelector(limit: worstCaseLimit)
    }

    mutating func add(_ record: ResultMeasures, caseIndex: Int) {
        count += 1
        if record.cacheHit { cacheHits += 1 }
        if record.retries > 0 { retried += 1 }
        if record.timings.coldStart { coldStarts += 1 }

        if let error = record.error {
            errorCount += 1
            errorsByKind[error.kind, default: 0] += 1
            if error.kind == NotMeasured.errorKind {
                unavailableCount += 1
                if unavailableMessage == nil { unavailableMessage = error.message }
            }
            Self.set(&adherence, caseIndex, .errored, filler: .absent)
        } else if record.constraints.isEmpty {
            Self.set(&adherence, caseIndex, .unchecked, filler: .absent)
        } else {
            var allPassed = true
            for outcome in record.constraints {
                // One in-place dictionary access per constraint.
                streamingCounts.update(outcome.name, initial: (0, 0)) { Self.count(&$0, passed: outcome.passed) }
                if !outcome.passed { allPassed = false }
            }
            checkedTotal += 1
            if allPassed { checkedPassed += 1 }
            Self.set(&adherence, caseIndex, allPassed ? .passed : .failed, filler: .absent)
        }

        for score in record.scores where score.value.isFinite {
            streamingScores.update(score.scorer, initial: []) { Self.set(&$0, caseIndex, score.value, filler: .nan) }
        }

        addLatency(record, caseIndex: caseIndex)

        if let usage = record.usage {
            resultsWithUsage += 1
            if usage.isEstimated { estimatedUsage += 1 }
            promptTokens += usage.promptTokens
            completionTokens += usage.completionTokens
        }
        if let cost = record.costUSD {
            pricedCount += 1
            totalCostUSD += cost
        }
        worst.consider(record)
    }

    /// Latency describes the model, so only successful, uncached, unretried results count; cold starts apart.
    private mutating func addLatency(_ record: ResultMeasures, caseIndex: Int) {
        if record.error != nil {
            latencyExcluded.errors += 1
        } else if record.cacheHit {
            latencyExcluded.cacheHits += 1
        } else if record.retries > 0 {
            latencyExcluded.retried += 1
        } else if record.timings.coldStart {
            latencyExcluded.coldStarts += 1
            coldStartTotalMs.append(record.timings.totalMs)
        } else {
            Self.set(&totalMs, caseIndex, record.timings.totalMs, filler: .nan)
            if let ttft = record.timings.ttftMs { ttftMs.append(ttft) }
            if let speed = record.timings.decodeTokensPerSecond, speed.isFinite { decodeTokensPerSecond.append(speed) }
            if let queueing = record.timings.queueingMs { queueingMs.append(queueing) }
        }
    }

    private static func count(_ counts: inout (passed: Int, total: Int), passed: Bool) {
        counts.total += 1
        if passed { counts.passed += 1 }
    }

    /// The reason the arm was never sent, when every result is `unavailable`; nil for a measured arm.
    var notMeasuredReason: String? {
        guard count > 0, unavailableCount == count else { return nil }
        return NotMeasured.reason(fromMessage: unavailableMessage ?? "", modelID: modelID)
    }

    /// The per-case arrays reordered so that position `i` holds what case `order[i]` had (`order` names every case
    /// of the feature, so the arrays come out full length); ends streaming (the per-name tallies become
    /// dictionaries).
    mutating func reorder(_ order: [Int]) {
        func permute<T>(_ array: [T], filler: T) -> [T] {
            order.map { $0 < array.count ? array[$0] : filler }
        }
        adherence = permute(adherence, filler: .absent)
        scores = streamingScores.dictionary { permute($0, filler: .nan) }
        streamingScores = NamedSlots()
        constraintCounts = streamingCounts.dictionary { $0 }
        totalMs = permute(totalMs, filler: .nan)
    }

    private static func set<T>(_ array: inout [T], _ index: Int, _ value: T, filler: T) {
        if index >= array.count {
            array.append(contentsOf: repeatElement(filler, count: index - array.count + 1))
        }
        array[index] = value
    }
}
