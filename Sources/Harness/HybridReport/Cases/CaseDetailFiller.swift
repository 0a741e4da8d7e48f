import HybridStore

/// After the streaming pass, fills the outcomes (texts, checks, scores) of the cases each ``SideBySide`` listed and
/// the details of each ``WorstCase``, from only those results (looked up by key); the streaming pass kept numbers only.
struct CaseDetailFiller {
    private struct Key: Hashable {
        var feature: String
        var armID: String
        var caseID: String
        var repeatIndex: Int
    }

    private struct Slot {
        var feature: Int
        var pair: Int
        var index: Int
        var isFirst: Bool
    }

    /// A worst case of a feature: (feature index, index in `worstCases`).
    private struct WorstSlot {
        var feature: Int
        var index: Int
    }

    private var report: RunReport
    private let textLimit: Int
    private var slots: [Key: [Slot]] = [:]
    private var worstSlots: [Key: [WorstSlot]] = [:]

    init(report: RunReport, textLimit: Int) {
        self.report = report
        self.textLimit = textLimit
        for (f, feature) in report.features.enumerated() {
            for (p, pair) in (feature.sideBySide ?? []).enumerated() {
                for (i, listed) in pair.cases.enumerated() {
                    for (armID, isFirst) in [(pair.first, true), (pair.second, false)] {
                        let key = Key(feature: feature.feature, armID: armID, caseID: listed.caseID, repeatIndex: listed.repeatIndex)
                        slots[key, default: []].append(Slot(feature: f, pair: p, index: i, isFirst: isFirst))
                    }
                }
            }
            for (i, worst) in feature.worstCases.enumerated() {
                let key = Key(feature: feature.feature, armID: worst.armID, caseID: worst.caseID, repeatIndex: worst.repeatIndex)
                worstSlots[key, default: []].append(WorstSlot(feature: f, index: i))
            }
        }
    }

    /// True when no case is listed, so there is nothing to read.
    var isEmpty: Bool { slots.isEmpty && worstSlots.isEmpty }

    /// The keys of the results to read.
    var keys: [ResultKey] {
        Set(slots.keys).union(worstSlots.keys).map {
            ResultKey(runID: report.runID, caseID: $0.caseID, armID: $0.armID, repeatIndex: $0.repeatIndex)
        }
    }

    mutating func add(_ record: ResultRecord) {
        let key = Key(feature: record.feature, armID: record.key.armID, caseID: record.key.caseID, repeatIndex: record.key.repeatIndex)
        for slot in worstSlots[key] ?? [] {
            let reason = report.features[slot.feature].worstCases[slot.index].reason
            report.features[slot.feature].worstCases[slot.index] = WorstCase(record, reason: reason, textLimit: textLimit)
        }
        guard let targets = slots[key] else { return }
        let outcome = CaseOutcome(record, textLimit: textLimit)
        for slot in targets {
            if slot.isFirst {
                report.features[slot.feature].sideBySide?[slot.pair].cases[slot.index].first = outcome
            } else {
                report.features[slot.feature].sideBySide?[slot.pair].cases[slot.index].second = outcome
            }
        }
    }

    /// The report with every listed case filled.
    var filled: RunReport { report }
}
