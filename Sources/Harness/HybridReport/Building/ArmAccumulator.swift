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
    /// The first distinct error messages (at most three), for an arm that ends up answering nothing.
    var errorMessages: [String] = []

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

    /// Per-page state: which page, and each text code's slot in `streamingCounts` / `streamingScores` (-1: not
    /// looked up yet on this page).
    private var page = 0
    private var constraintSlots: [Int] = []
    private var scoreSlots: [Int] = []

    init(_ columns: MeasureColumns, row: Int, worstCaseLimit: Int) {
        armID = columns.texts[Int(columns.armCodes[row])]
        promptVariant = columns.texts[Int(columns.promptVariantCodes[row])]
        modelID = columns.texts[Int(columns.modelCodes[row])]
        tier = columns.tiers[row].rawValue
        worst = WorstCaseSelector(limit: worstCaseLimit)
    }

    /// Adds row `row` of page number `pageNumber`, whose (case, repeat) is `caseIndex` of the feature.
    mutating func add(_ columns: MeasureColumns, row: Int, pageNumber: Int, caseIndex: Int) {
        if pageNumber != page {
            page = pageNumber
            constraintSlots = Array(repeating: -1, count: columns.texts.count)
            scoreSlots = constraintSlots
        }
        count += 1
        let timings = columns.timings[row]
        let cacheHit = columns.cacheHits[row]
        let retriedOnce = columns.retries[row] > 0
        if cacheHit { cacheHits += 1 }
        if retriedOnce { retried += 1 }
        if timings.coldStart { coldStarts += 1 }

        let errorCode = Int(columns.errorKindCodes[row])
        if errorCode >= 0 {
            addError(kind: columns.texts[errorCode], message: columns.errorMessages[row])
            Self.set(&adherence, caseIndex, .errored, filler: .absent)
        } else if columns.constraintRange(row).isEmpty {
            Self.set(&adherence, caseIndex, .unchecked, filler: .absent)
        } else {
            let allPassed = addConstraints(columns, row: row)
            Self.set(&adherence, caseIndex, allPassed ? .passed : .failed, filler: .absent)
        }
        addScores(columns, row: row, caseIndex: caseIndex)
        addLatency(timings, errored: errorCode >= 0, cacheHit: cacheHit, retried: retriedOnce, caseIndex: caseIndex)

        if let usage = columns.usages[row] {
            resultsWithUsage += 1
            if usage.isEstimated { estimatedUsage += 1 }
            promptTokens += usage.promptTokens
            completionTokens += usage.completionTokens
        }
        if let cost = columns.costsUSD[row] {
            pricedCount += 1
            totalCostUSD += cost
        }
        worst.consider(columns, row: row)
    }

    private mutating func addError(kind: String, message: String?) {
        errorCount += 1
        errorsByKind[kind, default: 0] += 1
        if errorMessages.count < 3, let message, !errorMessages.contains(message) { errorMessages.append(message) }
        if kind == NotMeasured.errorKind {
            unavailableCount += 1
            if unavailableMessage == nil { unavailableMessage = message ?? "" }
        }
    }

    /// Tallies the row's verdicts per constraint; true when all passed.
    private mutating func addConstraints(_ columns: MeasureColumns, row: Int) -> Bool {
        var allPassed = true
        for position in columns.constraintRange(row) {
            let code = Int(columns.constraintNameCodes[position])
            if constraintSlots[code] < 0 {
                constraintSlots[code] = streamingCounts.slot(columns.texts[code], initial: (0, 0))
            }
            let passed = columns.constraintPassed[position]
            streamingCounts.update(slot: constraintSlots[code]) { Self.count(&$0, passed: passed) }
            if !passed { allPassed = false }
        }
        checkedTotal += 1
        if allPassed { checkedPassed += 1 }
        return allPassed
    }

    private mutating func addScores(_ columns: MeasureColumns, row: Int, caseIndex: Int) {
        for position in columns.scoreRange(row) {
            let value = columns.scoreValues[position]
            guard value.isFinite else { continue }
            let code = Int(columns.scorerCodes[position])
            if scoreSlots[code] < 0 { scoreSlots[code] = streamingScores.slot(columns.texts[code], initial: []) }
            streamingScores.update(slot: scoreSlots[code]) { Self.set(&$0, caseIndex, value, filler: .nan) }
        }
    }

    /// Latency describes the model, so only successful, uncached, unretried results count; cold starts apart.
    private mutating func addLatency(
        _ timings: ResultTimings, errored: Bool, cacheHit: Bool, retried: Bool, caseIndex: Int
    ) {
        if errored {
            latencyExcluded.errors += 1
        } else if cacheHit {
            latencyExcluded.cacheHits += 1
        } else if retried {
            latencyExcluded.retried += 1
        } else if timings.coldStart {
            latencyExcluded.coldStarts += 1
            coldStartTotalMs.append(timings.totalMs)
        } else {
            Self.set(&totalMs, caseIndex, timings.totalMs, filler: .nan)
            if let ttft = timings.ttftMs { ttftMs.append(ttft) }
            if let speed = timings.decodeTokensPerSecond, speed.isFinite { decodeTokensPerSecond.append(speed) }
            if let queueing = timings.queueingMs { queueingMs.append(queueing) }
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
        // Cases usually arrive in order, one new case at a time: appending the one value skips the generic
        // `append(contentsOf:)` of a repeated filler (a profile's 2 %).
        if index == array.count {
            array.append(value)
            return
        }
        if index > array.count {
            array.append(contentsOf: repeatElement(filler, count: index - array.count + 1))
        }
        array[index] = value
    }
}
