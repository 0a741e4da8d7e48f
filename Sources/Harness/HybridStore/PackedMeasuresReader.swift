import HybridCore

/// Appends ``PackedMeasures`` blobs to a ``MeasureColumns`` page, one interner per repeating text (texts are coded
/// straight from the blob's bytes; a string is built only for a value the interner has not kept).
///
/// An arm fixes the five texts after the case id (arm id, feature, variant, model, tier), so those bytes are
/// compared as one span against the arms seen recently: one comparison per row instead of five.
struct PackedMeasuresReader {
    /// The codes of one arm's five texts.
    private struct ArmTexts {
        var arm: Int32
        var feature: Int32
        var promptVariant: Int32
        var model: Int32
        var tier: ModelTier
    }

    private var armSpans = TextInterner(capacity: 16)
    private var armTexts: [ArmTexts] = []
    private var texts = RowTextInterners()
    private var constraintNames = TextInterner()
    private var scorers = TextInterner()

    /// Appends the result stored at `rowID`, packed in `blob`, as the page's next row.
    mutating func append(_ blob: UnsafeRawBufferPointer, rowID: Int64, to page: inout MeasureColumns) throws {
        var bytes = PackedBytes(blob: blob, rowID: rowID)
        guard try bytes.byte() == PackedMeasures.format else { throw bytes.failure("an unknown packed format") }
        let flags = PackedMeasures.Flags(rawValue: UInt16(try bytes.byte()) | UInt16(try bytes.byte()) << 8)
        func code(_ interner: inout TextInterner) throws -> Int32 {
            try bytes.text { interner.code($0) { page.addText($0) } }
        }
        let caseCode = try code(&texts.caseIDs)
        let arm = try armTexts(&bytes, page: &page)
        let repeatIndex = try bytes.varint()
        let usage = flags.contains(.usage)
            ? TokenUsage(
                promptTokens: try bytes.varint(), completionTokens: try bytes.varint(), cachedTokens: try bytes.varint(),
                reasoningTokens: try bytes.varint(), isEstimated: flags.contains(.usageEstimated))
            : nil
        let timings = try Self.timings(&bytes, flags)
        let cost = flags.contains(.cost) ? try bytes.double() : nil
        var errorCode: Int32 = -1
        var errorMessage: String?
        if flags.contains(.error) {
            errorCode = try code(&texts.errorKinds)
            errorMessage = try bytes.text { String(decoding: $0, as: UTF8.self) }
        }
        let head = MeasureRowHead(
            caseCode: caseCode, repeatIndex: repeatIndex, armCode: arm.arm, featureCode: arm.feature,
            promptVariantCode: arm.promptVariant, modelCode: arm.model, tier: arm.tier, usage: usage, timings: timings,
            costUSD: cost, errorKindCode: errorCode, retries: try bytes.varint(), cacheHit: flags.contains(.cacheHit),
            hasOutput: flags.contains(.hasOutput))
        page.appendRow(head, errorMessage: errorMessage)
        for _ in 0..<max(0, try bytes.varint()) {
            page.appendConstraint(nameCode: try code(&constraintNames), passed: try bytes.byte() != 0)
        }
        for _ in 0..<max(0, try bytes.varint()) {
            page.appendScore(scorerCode: try code(&scorers), value: try bytes.double())
        }
        page.endRow()
    }

    /// The codes of the arm's five texts, coded one by one only for a span not seen recently.
    private mutating func armTexts(_ bytes: inout PackedBytes, page: inout MeasureColumns) throws -> ArmTexts {
        let start = bytes.offset
        for _ in 0..<5 { try bytes.skipText() }
        let span = bytes.bytes(start..<bytes.offset)
        var isNew = false
        let known = Int(armSpans.code(span) { _ in
            isNew = true
            return Int32(armTexts.count)
        })
        guard isNew else { return armTexts[known] }
        var cursor = PackedBytes(blob: UnsafeRawBufferPointer(span), rowID: bytes.rowID)
        func code(_ interner: inout TextInterner) throws -> Int32 {
            try cursor.text { interner.code($0) { page.addText($0) } }
        }
        let arm = try code(&texts.armIDs), feature = try code(&texts.features)
        let variant = try code(&texts.promptVariants), model = try code(&texts.modelIDs)
        let tierCode = try code(&texts.tierNames)
        let entry = ArmTexts(
            arm: arm, feature: feature, promptVariant: variant, model: model,
            tier: try texts.tiers.tier(code: tierCode, page: page))
        armTexts.append(entry)
        return entry
    }

    private static func timings(_ bytes: inout PackedBytes, _ flags: PackedMeasures.Flags) throws -> ResultTimings {
        func optional(_ flag: PackedMeasures.Flags) throws -> Double? {
            flags.contains(flag) ? try bytes.double() : nil
        }
        let total = try bytes.double()
        return ResultTimings(
            ttftMs: try optional(.ttft), totalMs: total, decodeTokensPerSecond: try optional(.decodeRate),
            retryBackoffMs: try optional(.retryBackoff) ?? 0, coldStart: flags.contains(.coldStart),
            serverPromptMs: try optional(.serverPrompt), serverGenerationMs: try optional(.serverGeneration))
    }
}

/// One interner per repeating text of a measures row, shared by the packed and the column readers.
struct RowTextInterners {
    var caseIDs = TextInterner(capacity: 2)
    var armIDs = TextInterner()
    var features = TextInterner()
    var promptVariants = TextInterner()
    var modelIDs = TextInterner()
    var tierNames = TextInterner(capacity: 3)
    var errorKinds = TextInterner()
    var tiers = TierCache()
}

/// The previous row's tier-name code and tier: rows repeat it, and parsing the name per row showed in profiles.
struct TierCache {
    private var last: (code: Int32, tier: ModelTier)?

    /// The tier named by text `code` of `page` (-1: the empty name).
    mutating func tier(code: Int32, page: MeasureColumns) throws -> ModelTier {
        if let last, last.code == code { return last.tier }
        let name = code < 0 ? "" : page.texts[Int(code)]
        guard let tier = ModelTier(rawValue: name) else {
            throw RecordDecodingError(table: ResultRecord.databaseTableName, reason: "unknown model tier '\(name)'")
        }
        last = (code, tier)
        return tier
    }
}

/// A cursor over one blob; reading past its end throws, naming the row.
private struct PackedBytes {
    let blob: UnsafeRawBufferPointer
    let rowID: Int64
    var offset = 0

    init(blob: UnsafeRawBufferPointer, rowID: Int64) {
        self.blob = blob
        self.rowID = rowID
    }

    func failure(_ what: String) -> RecordDecodingError {
        RecordDecodingError(table: "result_measures", reason: "row id \(rowID): \(what)")
    }

    private mutating func take(_ count: Int) throws -> Int {
        guard count >= 0, count <= blob.count - offset else { throw failure("packed measures cut short") }
        defer { offset += count }
        return offset
    }

    mutating func byte() throws -> UInt8 {
        blob[try take(1)]
    }

    mutating func varint() throws -> Int {
        var zigzag: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            zigzag |= UInt64(next & 0x7f) << shift
            if next < 0x80 { break }
            shift += 7
            guard shift < 64 else { throw failure("a varint longer than 64 bits") }
        }
        return Int(Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
    }

    /// Steps over the next text.
    mutating func skipText() throws {
        _ = try take(try varint())
    }

    /// The bytes at `range` of the blob.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeRawBufferPointer(rebasing: blob[range]).assumingMemoryBound(to: UInt8.self)
    }

    mutating func double() throws -> Double {
        let start = try take(8)
        return Double(bitPattern: UInt64(littleEndian: blob.loadUnaligned(fromByteOffset: start, as: UInt64.self)))
    }

    /// Hands the next text's bytes to `body`.
    mutating func text<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        let count = try varint()
        let start = try take(count)
        return try body(bytes(start..<(start + count)))
    }
}
