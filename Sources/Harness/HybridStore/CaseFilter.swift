/// Which cases of a run a results browser lists (`hybrid view`'s grid). Every filter is applied in SQL, so paging
/// over a large run reads only the page it shows.
///
/// A result passes when every constraint held and fails when one failed or the request errored, as the reports'
/// adherence counts it. Results with nothing to check, and of arms that were never sent (error kind
/// `unavailable`), count as neither.
public struct CaseFilter: Sendable, Hashable {
    /// Only results of this feature; nil for every feature of the run.
    public var feature: String?
    /// Only cases where at least one measured result failed.
    public var failingOnly: Bool
    /// Only cases where, for the same repeat, one measured arm passed and another failed.
    public var armsDisagree: Bool
    /// Only cases where at least one result failed the constraint with this name.
    public var failingConstraint: String?
    /// Only cases whose id, rendered input or some output contains this text (ASCII case-insensitive).
    public var text: String?

    /// A filter; the default lists every case.
    public init(
        feature: String? = nil, failingOnly: Bool = false, armsDisagree: Bool = false, failingConstraint: String? = nil,
        text: String? = nil
    ) {
        self.feature = feature
        self.failingOnly = failingOnly
        self.armsDisagree = armsDisagree
        self.failingConstraint = failingConstraint
        self.text = text
    }
}
