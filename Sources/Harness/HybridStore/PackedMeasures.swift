import GRDB
import GRDBSQLite
import HybridCore

/// One result's ``ResultMeasures`` as one blob of the narrow `result_measures` table (migration `v7`), so a report
/// steps one short row per result instead of a wide `results` row (prompts and outputs in its pages) plus its
/// `result_constraints` and `result_scores` rows, and makes three column calls per result instead of about thirty.
///
/// Layout (little-endian): the format byte, 16 bits of ``Flags``, then the texts case id, arm id, feature, prompt
/// variant, model id and tier (each a varint length and UTF-8 bytes), the repeat index, the usage counters when
/// present (zigzag varints), total ms then each optional double the flags announce (IEEE bit patterns), the error
/// kind and message when present, the retries, then the constraint verdicts (count, then name and a 0/1 byte each)
/// and the scores (count, then scorer and double each).
///
/// Values are packed as the typed columns store them, so a page read from here equals one read from the columns:
/// `cacheCreationTokens` has no column and is left out, and `-0.0` is kept as `0.0` (SQLite stores a REAL zero
/// without its sign). Non-finite numbers never get here: `ResultRecord.validate()` refuses them.
enum PackedMeasures {
    /// The layout's version; a blob of another one is refused with its row id.
    static let format: UInt8 = 1

    /// Which optional parts a blob holds, and the row's flags.
    struct Flags: OptionSet {
        let rawValue: UInt16
        static let usage = Flags(rawValue: 1 << 0)
        static let usageEstimated = Flags(rawValue: 1 << 1)
        static let ttft = Flags(rawValue: 1 << 2)
        static let decodeRate = Flags(rawValue: 1 << 3)
        static let retryBackoff = Flags(rawValue: 1 << 4)
        static let coldStart = Flags(rawValue: 1 << 5)
        static let serverPrompt = Flags(rawValue: 1 << 6)
        static let serverGeneration = Flags(rawValue: 1 << 7)
        static let cost = Flags(rawValue: 1 << 8)
        static let error = Flags(rawValue: 1 << 9)
        static let cacheHit = Flags(rawValue: 1 << 10)
        static let hasOutput = Flags(rawValue: 1 << 11)
    }

    static let insertSQL = "INSERT INTO result_measures (result_id, run_id, packed) VALUES (?, ?, ?)"

    /// `measures` in the layout above.
    static func pack(_ measures: ResultMeasures) -> [UInt8] {
        var bytes: [UInt8] = [format, 0, 0]
        bytes.reserveCapacity(160)
        let flags = flags(of: measures)
        bytes[1] = UInt8(truncatingIfNeeded: flags.rawValue)
        bytes[2] = UInt8(truncatingIfNeeded: flags.rawValue >> 8)
        // Field by field rather than over array literals: this runs for every stored result, and each literal
        // was an allocation.
        appendText(measures.key.caseID, to: &bytes)
        appendText(measures.key.armID, to: &bytes)
        appendText(measures.feature, to: &bytes)
        appendText(measures.promptVariant, to: &bytes)
        appendText(measures.modelID, to: &bytes)
        appendText(measures.tier.rawValue, to: &bytes)
        appendVarint(measures.key.repeatIndex, to: &bytes)
        if let usage = measures.usage {
            appendVarint(usage.promptTokens, to: &bytes)
            appendVarint(usage.completionTokens, to: &bytes)
            appendVarint(usage.cachedTokens, to: &bytes)
            appendVarint(usage.reasoningTokens, to: &bytes)
        }
        let timings = measures.timings
        appendDouble(timings.totalMs, to: &bytes)
        appendDouble(timings.ttftMs, to: &bytes)
        appendDouble(timings.decodeTokensPerSecond, to: &bytes)
        appendDouble(timings.retryBackoffMs == 0 ? nil : timings.retryBackoffMs, to: &bytes)
        appendDouble(timings.serverPromptMs, to: &bytes)
        appendDouble(timings.serverGenerationMs, to: &bytes)
        appendDouble(measures.costUSD, to: &bytes)
        if let error = measures.error {
            appendText(error.kind, to: &bytes)
            appendText(error.message, to: &bytes)
        }
        appendVarint(measures.retries, to: &bytes)
        appendVarint(measures.constraints.count, to: &bytes)
        for check in measures.constraints {
            appendText(check.name, to: &bytes)
            bytes.append(check.passed ? 1 : 0)
        }
        appendVarint(measures.scores.count, to: &bytes)
        for score in measures.scores {
            appendText(score.scorer, to: &bytes)
            appendDouble(score.value, to: &bytes)
        }
        return bytes
    }

    private static func flags(of measures: ResultMeasures) -> Flags {
        let timings = measures.timings
        func flag(_ isSet: Bool, _ flag: Flags) -> Flags { isSet ? flag : [] }
        return flag(measures.usage != nil, .usage).union(flag(measures.usage?.isEstimated == true, .usageEstimated))
            .union(flag(timings.ttftMs != nil, .ttft)).union(flag(timings.decodeTokensPerSecond != nil, .decodeRate))
            .union(flag(timings.retryBackoffMs != 0, .retryBackoff)).union(flag(timings.coldStart, .coldStart))
            .union(flag(timings.serverPromptMs != nil, .serverPrompt))
            .union(flag(timings.serverGenerationMs != nil, .serverGeneration))
            .union(flag(measures.costUSD != nil, .cost)).union(flag(measures.error != nil, .error))
            .union(flag(measures.cacheHit, .cacheHit)).union(flag(measures.hasOutput, .hasOutput))
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        appendVarint(text.utf8.count, to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    /// LEB128 of the zigzag code, so small counts of either sign take one byte.
    private static func appendVarint(_ number: Int, to bytes: inout [UInt8]) {
        var zigzag = UInt64(bitPattern: Int64((number << 1) ^ (number >> 63)))
        while zigzag >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: zigzag) | 0x80)
            zigzag >>= 7
        }
        bytes.append(UInt8(zigzag))
    }

    /// Nothing for nil (the flags tell the reader which doubles follow).
    private static func appendDouble(_ number: Double?, to bytes: inout [UInt8]) {
        guard let number else { return }
        let bits = (number == 0 ? 0.0 : number).bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
}

extension PackedMeasures {
    /// Inserts `record`'s packed row beside the result stored at `rowID`.
    static func insert(_ record: ResultRecord, rowID: Int64, statement: RawStatement) throws {
        statement.bind(rowID, at: 1)
        statement.bind(record.key.runID, at: 2)
        statement.bindBlob(pack(ResultMeasures(record)), at: 3)
        try statement.run()
    }

    /// Fills `result_measures` for every stored result (migration `v7` over an older file): each run's pages are
    /// read through the column and side-table path and packed from there, so old and new rows read the same.
    static func backfill(_ db: Database) throws {
        let runs = try String.fetchAll(db, sql: "SELECT DISTINCT run_id FROM results")
        let statement = try RawStatement(db, sql: insertSQL)
        for run in runs {
            var after = Int64.min
            while let range = try MeasuresPage.idRange(db, run: run, after: after, limit: 4_000) {
                let page = try MeasuresPage.readColumns(db, run: run, ids: range.ids, count: range.count)
                for (row, rowID) in page.rowIDs.enumerated() {
                    statement.bind(rowID, at: 1)
                    statement.bind(run, at: 2)
                    statement.bindBlob(pack(page.columns.measures(at: row)), at: 3)
                    try statement.run()
                }
                after = range.ids.upperBound
            }
        }
    }
}

extension RawStatement {
    /// Binds `bytes` as a BLOB (copied by SQLite before the call returns).
    func bindBlob(_ bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), sqliteTransient)
        }
    }
}
