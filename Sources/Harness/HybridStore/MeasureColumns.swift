public import HybridCore

/// A page of one run's ``ResultMeasures`` as parallel arrays: row `i` of the page is position `i` of every column.
///
/// Reports aggregate millions of results; one ``ResultMeasures`` per result cost about eight `String`s and two
/// arrays each. Here the texts (case and arm ids, features, variants, models, error kinds, constraint and scorer
/// names) are stored once per page in ``texts`` and rows hold their positions in it (codes), and the constraint
/// verdicts and scores of all rows are flat arrays cut by offsets. Stores hand pages out through
/// ``ResultStore/forEachMeasureColumns(run:batchSize:_:)``; ``measures(at:)`` rebuilds one row's value for callers
/// that want it.
public struct MeasureColumns: Sendable {
    /// The run every row belongs to.
    public let runID: String
    /// The page's distinct texts; every `…Codes` column holds positions in it.
    public internal(set) var texts: [String] = []
    /// Each row's case id (a code).
    public internal(set) var caseCodes: [Int32] = []
    /// Each row's repeat index.
    public internal(set) var repeatIndexes: [Int] = []
    /// Each row's arm id (a code).
    public internal(set) var armCodes: [Int32] = []
    /// Each row's feature (a code).
    public internal(set) var featureCodes: [Int32] = []
    /// Each row's prompt variant (a code).
    public internal(set) var promptVariantCodes: [Int32] = []
    /// Each row's model id (a code).
    public internal(set) var modelCodes: [Int32] = []
    /// Each row's model tier.
    public internal(set) var tiers: [ModelTier] = []
    /// Each row's usage, as in ``ResultMeasures/usage``.
    public internal(set) var usages: [TokenUsage?] = []
    /// Each row's timings.
    public internal(set) var timings: [ResultTimings] = []
    /// Each row's cost in US dollars; nil when unpriced.
    public internal(set) var costsUSD: [Double?] = []
    /// Each row's error kind (a code); -1 on success.
    public internal(set) var errorKindCodes: [Int32] = []
    /// The error messages, by row (errors are rare, so they are not a column).
    public internal(set) var errorMessages: [Int: String] = [:]
    /// Each row's retries.
    public internal(set) var retries: [Int] = []
    /// Each row's cache-hit flag.
    public internal(set) var cacheHits: [Bool] = []
    /// Each row's `hasOutput` flag.
    public internal(set) var hasOutputs: [Bool] = []
    /// Row `i`'s constraint verdicts are positions `constraintStarts[i] ..< constraintStarts[i + 1]` of the two
    /// constraint arrays, in the record's order.
    public internal(set) var constraintStarts: [Int32] = [0]
    /// Every verdict's constraint name (a code).
    public internal(set) var constraintNameCodes: [Int32] = []
    /// Every verdict.
    public internal(set) var constraintPassed: [Bool] = []
    /// Row `i`'s scores are positions `scoreStarts[i] ..< scoreStarts[i + 1]` of the two score arrays, in order.
    public internal(set) var scoreStarts: [Int32] = [0]
    /// Every score's scorer (a code).
    public internal(set) var scorerCodes: [Int32] = []
    /// Every score's value.
    public internal(set) var scoreValues: [Double] = []
    /// Codes of texts appended through ``append(_:)`` (stores filling the page themselves code texts as they read).
    private var codes: [String: Int32] = [:]

    /// An empty page of `runID`.
    public init(runID: String) {
        self.runID = runID
    }

    /// How many results the page holds.
    public var count: Int { caseCodes.count }

    /// Row `row`'s constraint verdict positions.
    public func constraintRange(_ row: Int) -> Range<Int> {
        Int(constraintStarts[row])..<Int(constraintStarts[row + 1])
    }

    /// Row `row`'s score positions.
    public func scoreRange(_ row: Int) -> Range<Int> {
        Int(scoreStarts[row])..<Int(scoreStarts[row + 1])
    }

    /// Row `row` as one value.
    public func measures(at row: Int) -> ResultMeasures {
        let errorCode = errorKindCodes[row]
        return ResultMeasures(
            key: ResultKey(
                runID: runID, caseID: texts[Int(caseCodes[row])], armID: texts[Int(armCodes[row])],
                repeatIndex: repeatIndexes[row]),
            feature: texts[Int(featureCodes[row])], promptVariant: texts[Int(promptVariantCodes[row])],
            modelID: texts[Int(modelCodes[row])], tier: tiers[row], usage: usages[row], timings: timings[row],
            costUSD: costsUSD[row],
            constraints: constraintRange(row).map {
                ResultMeasures.Check(name: texts[Int(constraintNameCodes[$0])], passed: constraintPassed[$0])
            },
            scores: scoreRange(row).map {
                ResultMeasures.Score(scorer: texts[Int(scorerCodes[$0])], value: scoreValues[$0])
            },
            error: errorCode < 0 ? nil : ResultError(kind: texts[Int(errorCode)], message: errorMessages[row] ?? ""),
            retries: retries[row], cacheHit: cacheHits[row], hasOutput: hasOutputs[row])
    }

    /// Appends one result (what the protocol's default path and in-memory reports do); its run id is not checked.
    public mutating func append(_ measures: ResultMeasures) {
        appendRow(
            MeasureRowHead(
                caseCode: code(measures.key.caseID), repeatIndex: measures.key.repeatIndex,
                armCode: code(measures.key.armID), featureCode: code(measures.feature),
                promptVariantCode: code(measures.promptVariant), modelCode: code(measures.modelID),
                tier: measures.tier, usage: measures.usage, timings: measures.timings, costUSD: measures.costUSD,
                errorKindCode: measures.error.map { code($0.kind) } ?? -1, retries: measures.retries,
                cacheHit: measures.cacheHit, hasOutput: measures.hasOutput),
            errorMessage: measures.error?.message)
        for check in measures.constraints { appendConstraint(nameCode: code(check.name), passed: check.passed) }
        for score in measures.scores { appendScore(scorerCode: code(score.scorer), value: score.value) }
        endRow()
    }

    /// The code of `text`, added to ``texts`` when new.
    private mutating func code(_ text: String) -> Int32 {
        if let known = codes[text] { return known }
        let new = addText(text)
        codes[text] = new
        return new
    }

    /// Appends `text` to ``texts`` and returns its code (readers that intern by bytes call this directly).
    mutating func addText(_ text: String) -> Int32 {
        texts.append(text)
        return Int32(texts.count - 1)
    }

    /// Appends a row's single-valued columns; its verdicts and scores follow, then ``endRow(_:)``.
    mutating func appendRow(_ head: MeasureRowHead, errorMessage: String?) {
        if let errorMessage, head.errorKindCode >= 0 { errorMessages[count] = errorMessage }
        caseCodes.append(head.caseCode)
        repeatIndexes.append(head.repeatIndex)
        armCodes.append(head.armCode)
        featureCodes.append(head.featureCode)
        promptVariantCodes.append(head.promptVariantCode)
        modelCodes.append(head.modelCode)
        tiers.append(head.tier)
        usages.append(head.usage)
        timings.append(head.timings)
        costsUSD.append(head.costUSD)
        errorKindCodes.append(head.errorKindCode)
        retries.append(head.retries)
        cacheHits.append(head.cacheHit)
        hasOutputs.append(head.hasOutput)
    }

    mutating func appendConstraint(nameCode: Int32, passed: Bool) {
        constraintNameCodes.append(nameCode)
        constraintPassed.append(passed)
    }

    mutating func appendScore(scorerCode: Int32, value: Double) {
        scorerCodes.append(scorerCode)
        scoreValues.append(value)
    }

    /// Closes the last row's verdicts and scores.
    mutating func endRow() {
        constraintStarts.append(Int32(constraintNameCodes.count))
        scoreStarts.append(Int32(scorerCodes.count))
    }

    /// Room for `rows` rows (a page's size).
    mutating func reserveCapacity(_ rows: Int) {
        caseCodes.reserveCapacity(rows)
        repeatIndexes.reserveCapacity(rows)
        armCodes.reserveCapacity(rows)
        featureCodes.reserveCapacity(rows)
        promptVariantCodes.reserveCapacity(rows)
        modelCodes.reserveCapacity(rows)
        tiers.reserveCapacity(rows)
        usages.reserveCapacity(rows)
        timings.reserveCapacity(rows)
        costsUSD.reserveCapacity(rows)
        errorKindCodes.reserveCapacity(rows)
        retries.reserveCapacity(rows)
        cacheHits.reserveCapacity(rows)
        hasOutputs.reserveCapacity(rows)
        constraintStarts.reserveCapacity(rows + 1)
        scoreStarts.reserveCapacity(rows + 1)
    }
}

/// One row's single-valued columns, as a reader hands them to ``MeasureColumns/appendRow(_:errorMessage:)``.
struct MeasureRowHead {
    var caseCode: Int32
    var repeatIndex: Int
    var armCode: Int32
    var featureCode: Int32
    var promptVariantCode: Int32
    var modelCode: Int32
    var tier: ModelTier
    var usage: TokenUsage?
    var timings: ResultTimings
    var costUSD: Double?
    var errorKindCode: Int32
    var retries: Int
    var cacheHit: Bool
    var hasOutput: Bool
}
