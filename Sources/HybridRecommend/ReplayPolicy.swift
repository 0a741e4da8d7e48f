public import HybridConfig
public import HybridCore
public import HybridRouter

/// A routing policy to replay over stored results: the order of arms to try and when to move to the next one.
///
/// Order entries are model ids (combined with `variant` into arm ids `variant@model`) or full arm ids. The walk
/// follows the router's rules: an error kind in `stopOn` ends it, a `timeout` cuts one attempt and moves on,
/// `deadlineMs` bounds the whole walk, and when every arm answered but failed its checks the request gets the
/// answer failing the fewest checks (or nothing, with `whenChecksFail: throw`).
public struct ReplayPolicy: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Model ids or `variant@model` arm ids, best first.
    public var order: [String]
    /// The prompt variant for entries that are bare model ids; nil when the run has one variant.
    public var variant: String?
    /// When to fall back; `error` is always included.
    public var fallback: [FallbackCondition]
    /// Error kinds that end the walk instead of falling back (the router's default: `refusal`).
    public var stopOn: Set<String>
    /// The overall deadline of one request in milliseconds (the feature's `deadlineMs`); nil: none.
    public var deadlineMs: Double?
    /// What a request gets when every arm failed its checks.
    public var whenChecksFail: RoutingConfig.WhenChecksFail
    /// The hedge to replay (`routing.hedge`); nil: requests are not hedged.
    public var hedge: HedgeConfig?

    /// Creates a policy; `fallback` is normalized so `error` is always included.
    public init(
        order: [String], variant: String? = nil, fallback: [FallbackCondition] = [], stopOn: Set<String> = Set(RouterDefaults.stoppingKinds.map(\.rawValue)),
        deadlineMs: Double? = nil, whenChecksFail: RoutingConfig.WhenChecksFail = .returnBest, hedge: HedgeConfig? = nil
    ) {
        self.order = order
        self.variant = variant
        self.fallback = FallbackCondition.normalized(fallback)
        self.stopOn = stopOn
        self.deadlineMs = deadlineMs
        self.whenChecksFail = whenChecksFail
        self.hedge = hedge
    }

    /// The output checks the conditions fall back on (`adherence` selects every check).
    public var outputSelection: OutputCheckSelection {
        var selection = OutputCheckSelection.none
        for condition in fallback {
            switch condition {
            case .adherence:
                selection.schema = true
                selection.allConstraints = true
            case .check("schema"): selection.schema = true
            case .check("constraints"): selection.allConstraints = true
            case .check(let name): selection.names.insert(name)
            case .error, .timeout, .quality: break
            }
        }
        return selection
    }

    /// The arm ids the order names, given the variant to use for bare model ids.
    public func armIDs(variant: String) -> [String] {
        order.map { $0.contains("@") ? $0 : "\(variant)@\($0)" }
    }

    /// The timeout threshold in milliseconds, when a `timeout` condition is set (the smallest, if several).
    public var timeoutMs: Double? {
        fallback.compactMap { if case .timeout(let ms) = $0 { ms } else { nil } }.min()
    }

    public var description: String {
        let stops = stopOn.isEmpty ? "" : "; stop on \(stopOn.sorted().joined(separator: ", "))"
        let deadline = deadlineMs.map { "; deadline \(Int($0.rounded())) ms" } ?? ""
        let hedged = hedge.map { "; hedge after \($0.afterMs) ms" } ?? ""
        return "\(variant.map { "\($0): " } ?? "")\(order.joined(separator: " → ")) (fallback on \(fallback.map(\.description).joined(separator: ", "))\(stops)\(deadline)\(hedged))"
    }
}

/// The former name of ``ReplayPolicy``, which read too much like the router's own defaults.
@available(*, deprecated, renamed: "ReplayPolicy")
public typealias RoutePolicy = ReplayPolicy
