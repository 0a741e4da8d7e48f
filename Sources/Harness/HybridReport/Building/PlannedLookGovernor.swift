import Foundation
import HybridStore

/// Which design governs a reading of a field run under a ``FieldDesign``, and what its planned looks decided.
///
/// A reading on or after planned look k (k later than every look taken; days counted from the run's first event,
/// or installs reached) *is* planned look k, at information fraction t = progress / horizon (1 at the last planned
/// look). Its comparisons are tested on z = difference / standard error against Lan–DeMets boundaries at
/// α·(1 − s), with the metrics and segments as one family in the group-sequential graphical form of Maurer & Bretz
/// (Stat Biopharm Res 5:311, 2013): each hypothesis starts at its weight's share of α·(1 − s) (``weights(of:)``:
/// equal shares, which is Holm, or 0.8 for the design's primary metric); a rejection passes its level on to the
/// rest, whose boundaries are recomputed at the new level over the same fractions. A hypothesis
/// is rejected when its z at any planned look taken so far crosses that look's boundary at its current level, so a
/// decision stays. Every other reading decides only by the always-valid test at α·s.
struct PlannedLookGovernor {
    /// Where the reading stands.
    struct Position: Hashable {
        /// The planned look this reading is, from 1; nil off the plan.
        var look: Int?
        /// Its information fraction; nil off the plan.
        var fraction: Double?
        /// "planned look 3 of 7, t 0.43" or "off the plan (between planned looks 2 and 3)".
        var text: String
    }

    /// What the planned looks decided of one comparison, or how far it is from deciding.
    struct Status: Hashable {
        /// Whether a boundary was crossed.
        var rejected: Bool
        /// The look (from 1) of the crossing, or this look when nothing crossed; nil when no planned look judged it.
        var look: Int?
        var fraction: Double?
        var z: Double
        var boundary: Double
        /// The hypothesis's level when it was judged.
        var level: Double
    }

    let design: FieldDesign
    let alpha: Double
    let position: Position
    /// The design's planned looks taken so far (this one included when planned): their look numbers and fractions.
    let looks: [(number: Int, fraction: Double)]
    /// Per comparison key, its z at each taken planned look (by index into `looks`).
    let zs: [String: [Int: Double]]

    /// The share of α the planned looks spend.
    var plannedAlpha: Double { alpha * (1 - design.offPlanShare) }
    /// The level of the always-valid test under this design.
    var offPlanAlpha: Double { alpha * design.offPlanShare }

    /// The governor of a reading at `progress` (days since the first event, or installs) with `earlier` looks kept,
    /// whose comparisons now have z values `current` (by key). `again` is the plan of a look already kept at the same
    /// events: the same data read again is the same reading, not a later look at a larger t.
    init(
        design: FieldDesign, alpha: Double, progress: Double, earlier: [FieldLook], current: [String: Double],
        again: FieldLook.Plan? = nil
    ) {
        self.design = design
        self.alpha = alpha
        var looks: [(number: Int, fraction: Double)] = []
        var zs: [String: [Int: Double]] = [:]
        for look in earlier {
            guard let number = look.plan?.look, let fraction = look.plan?.fraction else { continue }
            for entry in look.entries { if let z = entry.z { zs[entry.key, default: [:]][looks.count] = z } }
            looks.append((number, fraction))
        }
        position = again.map { Self.position(again: $0, design: design) }
            ?? Self.position(design: design, progress: progress, taken: looks)
        if let number = position.look, let fraction = position.fraction {
            for (key, z) in current { zs[key, default: [:]][looks.count] = z }
            looks.append((number, fraction))
        }
        self.looks = looks
        self.zs = zs
    }

    /// The position a look kept at the same events had: the same data read again.
    static func position(again plan: FieldLook.Plan, design: FieldDesign) -> Position {
        guard let look = plan.look, let fraction = plan.fraction else {
            return Position(look: nil, fraction: nil, text: "off the plan (this look read again, no new events)")
        }
        return Position(
            look: look, fraction: fraction,
            text: "planned look \(look) of \(design.schedule.count), t \(FieldDesign.number((fraction * 100).rounded() / 100)) "
                + "(read again, no new events)")
    }

    /// The planned look a reading at `progress` is, given the looks `taken`, or where it stands off the plan.
    static func position(design: FieldDesign, progress: Double, taken: [(number: Int, fraction: Double)]) -> Position {
        let count = design.schedule.count
        let lastTaken = taken.last?.number ?? 0
        let due = design.schedule.lastIndex { progress >= $0 - 1e-9 }.map { $0 + 1 } ?? 0
        guard due > lastTaken else {
            let text: String
            if due == 0 {
                text = "off the plan (before planned look 1)"
            } else if due >= count {
                text = "off the plan (past the horizon: all \(count) planned looks taken)"
            } else {
                text = "off the plan (between planned looks \(due) and \(due + 1))"
            }
            return Position(look: nil, fraction: nil, text: text)
        }
        let fraction = due == count ? 1 : min(1, progress / design.horizon.amount)
        guard fraction > (taken.last?.fraction ?? 0) else {
            return Position(look: nil, fraction: nil, text: "off the plan (no information since planned look \(lastTaken))")
        }
        return Position(
            look: due, fraction: fraction,
            text: "planned look \(due) of \(count), t \(FieldDesign.number((fraction * 100).rounded() / 100))")
    }

    /// The planned looks' decision on each comparison of the family (`keys`, the comparisons judged now, and every
    /// one a planned look judged before, so the family never shrinks to give the rest a larger share), by the
    /// sequentially rejective graphical procedure in Maurer & Bretz's group-sequential form: each hypothesis is tested
    /// at its weight's share of the planned α (``weights(of:)``), and a rejection passes its weight equally to those
    /// left (``GraphicalProcedure/rejecting(_:)``), whose boundaries are recomputed at the new level over the same
    /// fractions.
    func statuses(of keys: [String]) -> [String: Status] {
        let family = Array(Set(keys).union(zs.keys)).sorted()
        let initial = weights(of: family)
        guard var graph = GraphicalProcedure.passingEqually(weights: family.map { initial[$0] ?? 0 }) else { return [:] }
        var standing = Set(family.indices)
        var out: [String: Status] = [:]
        var boundaries: [Double: [Double]] = [:]
        while !standing.isEmpty {
            var rejected: [Int] = []
            for index in standing where zs[family[index]] != nil {
                let level = plannedAlpha * graph.weights[index]
                let bounds = boundaries[level] ?? self.boundaries(level: level)
                boundaries[level] = bounds
                let status = status(of: family[index], bounds: bounds, level: level)
                out[family[index]] = status
                if status.rejected { rejected.append(index) }
            }
            guard !rejected.isEmpty else { break }
            for index in rejected.sorted() {
                standing.remove(index)
                graph = graph.rejecting(index)
            }
        }
        return out
    }

    /// The initial weights of `family`: equal (Holm) without a primary metric; with one, the design's primary share
    /// spread over the whole run's comparisons of that metric and the rest over the others. Fixed by the design and
    /// the report's metrics before the data, as the procedure needs.
    func weights(of family: [String]) -> [String: Double] {
        guard let primary = design.primaryMetric else {
            return Dictionary(uniqueKeysWithValues: family.map { ($0, 1 / Double(family.count)) })
        }
        let isPrimary = { (key: String) -> Bool in
            let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            return parts.count == 4 && parts[2] == primary && parts[3].isEmpty
        }
        let primaries = family.filter(isPrimary).count
        let others = family.count - primaries
        let share = primaries == 0 ? 0 : (others == 0 ? 1 : design.primaryShare)
        return Dictionary(uniqueKeysWithValues: family.map { key in
            (key, isPrimary(key) ? share / Double(primaries) : (1 - share) / Double(max(1, others)))
        })
    }

    private func boundaries(level: Double) -> [Double] {
        GroupSequentialDesign(spending: design.spending, alpha: level, fractions: looks.map(\.fraction))?.boundaries()
            ?? looks.map { _ in .infinity }
    }

    /// The first crossing of `key`'s z over the looks taken, else its standing at its latest judged look.
    private func status(of key: String, bounds: [Double], level: Double) -> Status {
        let values = zs[key] ?? [:]
        for index in looks.indices {
            guard let z = values[index], abs(z) >= bounds[index] else { continue }
            return Status(
                rejected: true, look: looks[index].number, fraction: looks[index].fraction, z: z, boundary: bounds[index],
                level: level)
        }
        let latest = values.keys.max() ?? looks.count - 1
        return Status(
            rejected: false, look: looks[latest].number, fraction: looks[latest].fraction, z: values[latest] ?? 0,
            boundary: bounds[latest], level: level)
    }

    /// "planned look 3 of 7, t 0.43, |z| 2.91 ≥ boundary 2.47 at α 0.0225".
    func text(_ status: Status) -> String {
        let look = status.look.map { "planned look \($0) of \(design.schedule.count)" } ?? "planned looks"
        let t = status.fraction.map { ", t " + FieldDesign.number(($0 * 100).rounded() / 100) } ?? ""
        return look + t + String(
            format: ", |z| %.2f %@ boundary %.2f at α %.3g", abs(status.z), status.rejected ? "≥" : "<", status.boundary,
            status.level)
    }

    /// "always-valid at α 0.005" with where the reading stands.
    var offPlanText: String {
        String(format: "always-valid at α %.3g", offPlanAlpha)
    }
}
