/// One floor judged on one candidate route: which, whether it held, and the figures that decided it.
public struct FloorCheck: Sendable, Hashable, CustomStringConvertible {
    /// `adherence`, `quality`, `p95 latency`, `cost`, `privacy`.
    public var name: String
    /// True when the candidate meets this floor.
    public var passed: Bool
    /// The figure and the requirement, such as `Wilson lower 62.0% < 70.0%`.
    public var detail: String

    /// Creates a check.
    public init(name: String, passed: Bool, detail: String) {
        self.name = name
        self.passed = passed
        self.detail = detail
    }

    public var description: String { "\(name) \(passed ? "ok" : "FAILS"): \(detail)" }
}
