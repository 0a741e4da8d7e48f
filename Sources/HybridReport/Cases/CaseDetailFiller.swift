import HybridStore

/// The second pass of a report: fills the outcomes (texts, checks, scores) of the cases each ``SideBySide``
/// listed, reading only those results' text; the first pass kept numbers only.
struct CaseDetailFiller {
    private struct Key: Hashable {
        var feature: String
        var armID: String
        var caseKey: String
    }

    private struct Slot {
        var feature: Int
        var pair: Int
        var index: Int
        var isFirst: Bool
    }

    private var report: RunReport
    private let textLimit: Int
    private var slots: [Key: [Slot]] = [:]

    init(report: RunReport, textLimit: Int) {
        self.report = report
        self.textLimit = textLimit
        for (f, feature) in report.features.enumerated() {
            for (p, pair) in (feature.sideBySide ?? []).enumerated() {
                for (i, listed) in pair.cases.enumerated() {
                    let caseKey = FeatureAccumulator.caseKey(caseID: listed.caseID, repeatIndex: listed.repeatIndex)
                    slots[Key(feature: feature.feature, armID: pair.first, caseKey: caseKey), default: []]
                        .append(Slot(feature: f, pair: p, index: i, isFirst: true))
                    slots[Key(feature: feature.feature, armID: pair.second, caseKey: caseKey), default: []]
                        .append(Slot(feature: f, pair: p, index: i, isFirst: false))
                }
            }
        }
    }

    /// True when no case is listed, so the second pass can be skipped.
    var isEmpty: Bool { slots.isEmpty }

    mutating func add(_ record: ResultRecord) {
        let caseKey = FeatureAccumulator.caseKey(caseID: record.key.caseID, repeatIndex: record.key.repeatIndex)
        guard let targets = slots[Key(feature: record.feature, armID: record.key.armID, caseKey: caseKey)] else { return }
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
