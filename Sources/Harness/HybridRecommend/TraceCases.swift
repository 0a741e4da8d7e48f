import HybridReport

/// A trace's requests grouped by dataset case, so that the repeats of a case are reduced to one value before any
/// interval (the case is the unit an eval samples; see ``RepeatReducer``). Without repeats every figure is the
/// per-request one, unchanged.
struct TraceCases {
    /// Per case, the positions of its requests in the trace; nil when no case repeats.
    let groups: [[Int]]?
    let reducer: RepeatReducer

    init(_ trace: RouteTrace, table: RunOutcomeTable, reducer: RepeatReducer) {
        self.reducer = reducer
        guard trace.cases.contains(where: { table.cases[$0].repeatIndex != 0 }) else {
            groups = nil
            return
        }
        var positions: [String: Int] = [:]
        var groups: [[Int]] = []
        for (position, caseIndex) in trace.cases.enumerated() {
            let id = table.cases[caseIndex].caseID
            if let group = positions[id] {
                groups[group].append(position)
            } else {
                positions[id] = groups.count
                groups.append([position])
            }
        }
        self.groups = groups
    }

    /// Per case, the mean of its requests' values (nil skipped); the values themselves without repeats.
    func means(_ values: [Double?]) -> [Double] {
        guard let groups else { return values.compactMap { $0 } }
        return groups.compactMap { group in Self.mean(group.compactMap { values[$0] }) }
    }

    /// The mean as offsets from the first value, so repeats that agree give that value exactly.
    static func mean(_ values: [Double]) -> Double? {
        guard let first = values.first else { return nil }
        return first + values.reduce(0) { $0 + ($1 - first) } / Double(values.count)
    }

    /// The share of requests with `flags` set, its interval on cases when they repeat (each case's flags reduced by
    /// `reducer`, default the trace's).
    func proportion(_ flags: [Bool], reducer: RepeatReducer? = nil) -> ProportionEstimate {
        let reducer = reducer ?? self.reducer
        let successes = flags.lazy.filter { $0 }.count
        guard let groups else { return ProportionEstimate(successes: successes, trials: flags.count) }
        let values = groups.compactMap { group in
            reducer.reduce(passes: group.lazy.filter { flags[$0] }.count, checked: group.count)
        }
        return ProportionEstimate(successes: successes, trials: flags.count, caseValues: values)
    }

    /// Cases paired across two traces of one table: per shared case id, the two per-case means of `first` and
    /// `second` (nil values skipped).
    static func paired(
        _ first: (trace: RouteTrace, values: [Double?]), _ second: (trace: RouteTrace, values: [Double?]),
        table: RunOutcomeTable
    ) -> (first: [Double], second: [Double]) {
        func byCase(_ side: (trace: RouteTrace, values: [Double?])) -> [String: [Double]] {
            var values: [String: [Double]] = [:]
            for (position, caseIndex) in side.trace.cases.enumerated() {
                guard let value = side.values[position] else { continue }
                values[table.cases[caseIndex].caseID, default: []].append(value)
            }
            return values
        }
        let a = byCase(first)
        let b = byCase(second)
        var x: [Double] = []
        var y: [Double] = []
        for id in a.keys.sorted() {
            guard let left = a[id].flatMap(mean), let right = b[id].flatMap(mean) else { continue }
            x.append(left)
            y.append(right)
        }
        return (x, y)
    }
}
