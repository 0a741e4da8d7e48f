/// A plan's work items in their seeded order, 4 bytes each: `(case × repeats + repeat) × arms + arm`, decoded
/// on access. An array of ``EvalPlan/WorkItem``s (three strings each) was 72 bytes per item: 1.4 MB of a
/// 20,000-sample run's memory and 72 MB before the first request of a million-sample one.
public struct WorkOrder: RandomAccessCollection, Sendable {
    private let codes: [UInt32]
    private let arms: [EvalArm]
    private let repeats: Int

    /// Every (case, arm, repeat) of `caseCount` cases kept by `isIncluded`, shuffled by `seed`: in the same order as
    /// shuffling the items themselves with that seed would give.
    init(caseCount: Int, arms: [EvalArm], repeats: Int, seed: UInt64, where isIncluded: ((EvalPlan.WorkItem) -> Bool)? = nil) {
        self.arms = arms
        self.repeats = repeats
        let total = caseCount * repeats * arms.count
        precondition(total <= Int(UInt32.max), "a plan of \(total) results is more than one process runs; use --shard")
        var codes = Array(0..<UInt32(total))
        if let isIncluded { codes.removeAll { !isIncluded(Self.item(Int($0), arms: arms, repeats: repeats)) } }
        var generator = SeededGenerator(seed: seed)
        codes.shuffle(using: &generator)
        self.codes = codes
    }

    private init(codes: [UInt32], arms: [EvalArm], repeats: Int) {
        self.codes = codes
        self.arms = arms
        self.repeats = repeats
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { codes.count }

    public subscript(position: Int) -> EvalPlan.WorkItem {
        Self.item(Int(codes[position]), arms: arms, repeats: repeats)
    }

    /// The items `isIncluded` keeps, in the same order (a resumed run's missing keys).
    public func keeping(_ isIncluded: (EvalPlan.WorkItem) -> Bool) -> WorkOrder {
        WorkOrder(codes: codes.filter { isIncluded(Self.item(Int($0), arms: arms, repeats: repeats)) }, arms: arms, repeats: repeats)
    }

    private static func item(_ code: Int, arms: [EvalArm], repeats: Int) -> EvalPlan.WorkItem {
        let (rest, arm) = code.quotientAndRemainder(dividingBy: arms.count)
        let (caseIndex, repeatIndex) = rest.quotientAndRemainder(dividingBy: repeats)
        return EvalPlan.WorkItem(caseIndex: caseIndex, arm: arms[arm], repeatIndex: repeatIndex)
    }
}
