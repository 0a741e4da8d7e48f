import Foundation
import HybridCore
import HybridStore

extension CaseOutcome {
    /// The outcome of a stored result, texts cut at `textLimit` characters (nil: whole).
    init(_ record: ResultRecord, textLimit: Int?) {
        self.init(
            input: record.renderedPrompt.map { CaseText.cut($0, limit: textLimit) },
            passed: Self.verdict(record),
            output: record.rawOutput.map { CaseText.cut($0, limit: textLimit) },
            error: record.error.map { WorstCase.ErrorDetail(kind: $0.kind, message: CaseText.cut($0.message, limit: textLimit)) },
            failedChecks: Self.failedChecks(record),
            scores: Dictionary(record.scores.map { ($0.scorer, $0.value) }, uniquingKeysWith: { _, last in last })
        )
    }

    /// Pass/fail as the report's adherence counts it: an error fails, every constraint passing passes; nil when
    /// the result was checked against nothing or its arm was never sent (`unavailable`: not measured).
    static func verdict(_ record: ResultRecord) -> Bool? {
        if let error = record.error {
            return error.kind == NotMeasured.errorKind ? nil : false
        }
        return record.allConstraintsPassed
    }

    /// ``verdict(_:)`` from a result's measures.
    static func verdict(_ record: ResultMeasures) -> Bool? {
        if let error = record.error {
            return error.kind == NotMeasured.errorKind ? nil : false
        }
        return record.allConstraintsPassed
    }

    /// The constraints of `record` that failed, with the observed value as compact JSON.
    static func failedChecks(_ record: ResultRecord) -> [WorstCase.FailedCheck] {
        record.constraints.filter { !$0.passed }.map { outcome in
            WorstCase.FailedCheck(name: outcome.name, message: outcome.message, observed: outcome.observed.map(compactJSON))
        }
    }

    private static func compactJSON(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}

/// Texts in reports are cut so one long output cannot swamp a page.
enum CaseText {
    /// `text` cut at `limit` characters with an ellipsis; whole when `limit` is nil or not exceeded.
    static func cut(_ text: String, limit: Int?) -> String {
        guard let limit, text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }

    /// Case ids in reading order: numeric-aware (`k2` before `k10`), then by repeat.
    static func precedes(_ a: (caseID: String, repeatIndex: Int), _ b: (caseID: String, repeatIndex: Int)) -> Bool {
        switch a.caseID.compare(b.caseID, options: [.numeric]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a.caseID != b.caseID ? a.caseID < b.caseID : a.repeatIndex < b.repeatIndex
        }
    }
}
