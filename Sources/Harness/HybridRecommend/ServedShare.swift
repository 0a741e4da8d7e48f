/// The share of simulated requests served by one model or one tier.
public struct ServedShare: Sendable, Hashable, CustomStringConvertible {
    /// A model id or a tier name.
    public var label: String
    /// Share of simulated requests served, with its Wilson interval.
    public var share: ProportionEstimate

    /// Creates a share.
    public init(label: String, share: ProportionEstimate) {
        self.label = label
        self.share = share
    }

    public var description: String { "\(label): \(share)" }
}
