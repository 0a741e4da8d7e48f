public import HybridConfig
import HybridCore
package import HybridRouter

/// A routing policy to replay over stored results: an order of arms plus the config's own `routing` block.
///
/// Order entries are model ids (combined with `variant` into arm ids `variant@model`) or full arm ids. The rules
/// come from the routing block through the router's own resolver (`RoutingWalk.Rules`), over the app defaults an
/// app gets without saying anything, so a simulated policy and the config a recommendation writes are one thing.
/// `simulate`'s flags write into the same block; only quality floors, which need references an app does not have,
/// are the simulator's own.
public struct ReplayPolicy: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Model ids or `variant@model` arm ids, best first.
    public var order: [String]
    /// The prompt variant for entries that are bare model ids; nil when the run has one variant.
    public var variant: String?
    /// What the router does at each step, as a config's `routing` block says it.
    public var routing: RoutingConfig
    /// The overall deadline of one request in milliseconds (the feature's `deadlineMs`, the same unit); nil: none.
    public var deadlineMs: Int?
    /// The feature's privacy class: arms of a tier it does not allow are skipped, as the router skips them; nil:
    /// not judged.
    public var privacy: PrivacyClass?
    /// Quality floors (`quality:SCORER>=MIN`): the simulator falls back on them like on a failed output check.
    public var qualityFloors: [FallbackCondition]

    /// The hedge to replay: the routing block's `hedge`; nil: requests are not hedged.
    public var hedge: HedgeConfig? {
        get { routing.hedge }
        set { routing.hedge = newValue }
    }

    /// A policy over a routing block as a config writes it.
    public init(
        order: [String], variant: String? = nil, routing: RoutingConfig, deadlineMs: Int? = nil, privacy: PrivacyClass? = nil,
        qualityFloors: [FallbackCondition] = []
    ) {
        self.order = order
        self.variant = variant
        self.routing = routing
        self.deadlineMs = deadlineMs
        self.privacy = privacy
        self.qualityFloors = qualityFloors.filter { if case .quality = $0 { true } else { false } }
    }

    /// A policy from the command line's conditions, written into a routing block: output checks become
    /// `fallbackOnOutput`, a timeout `attemptTimeoutMs`, `stopOn` an action for every error kind. What is left nil
    /// is the router's default (`RouterDefaults`), resolved where the router resolves it.
    public init(
        order: [String], variant: String? = nil, fallback: [FallbackCondition] = [], stopOn: Set<String>? = nil,
        deadlineMs: Int? = nil, whenChecksFail: RoutingConfig.WhenChecksFail? = nil, hedge: HedgeConfig? = nil
    ) {
        var routing = RoutingConfig()
        routing.hedge = hedge
        routing.onError = stopOn.map { stops in
            Dictionary(uniqueKeysWithValues: GenerationError.Kind.allCases.map { ($0.rawValue, stops.contains($0.rawValue) ? .stop : .fallback) })
        }
        let selection = Self.selection(fallback)
        routing.fallbackOnOutput = selection.isEmpty ? nil : selection.entries
        routing.attemptTimeoutMs = Self.timeoutMs(fallback).map { Int($0.rounded()) }
        routing.whenChecksFail = whenChecksFail
        self.init(order: order, variant: variant, routing: routing, deadlineMs: deadlineMs, qualityFloors: fallback)
    }

    /// The walk's rules for this policy: the routing block through the router's resolver over the app defaults.
    package var rules: RoutingWalk.Rules {
        RoutingWalk.Rules(
            routing: routing, deadlineMs: deadlineMs, privacy: privacy, defaults: Self.appDefaults)
    }

    /// The defaults an app gets without saying anything, merged once rather than per replayed request.
    private static let appDefaults = RouterDefaults()

    /// When a request moves on, as the command line writes it: `error`, the output checks, the attempt timeout and
    /// the quality floors.
    public var fallback: [FallbackCondition] {
        var out: [FallbackCondition] = [.error]
        out += (routing.fallbackOnOutput ?? []).map { FallbackCondition.check($0) }
        if let timeout = routing.attemptTimeoutMs, timeout > 0 { out.append(.timeout(milliseconds: Double(timeout))) }
        return out + qualityFloors
    }

    /// Error kinds that end the walk instead of falling back.
    public var stopOn: Set<String> {
        Set(rules.actions.filter { $0.value == .stop }.map(\.key.rawValue))
    }

    /// What a request gets when every arm failed its checks.
    public var whenChecksFail: RoutingConfig.WhenChecksFail { rules.whenChecksFail }

    /// The arm ids the order names, given the variant to use for bare model ids.
    public func armIDs(variant: String) -> [String] {
        order.map { $0.contains("@") ? $0 : "\(variant)@\($0)" }
    }

    public var description: String {
        let stops = stopOn.isEmpty ? "" : "; stop on \(stopOn.sorted().joined(separator: ", "))"
        let deadline = deadlineMs.map { "; deadline \($0) ms" } ?? ""
        let hedged = hedge.map { "; hedge after \($0.afterMs) ms" } ?? ""
        return "\(variant.map { "\($0): " } ?? "")\(order.joined(separator: " → ")) (fallback on \(fallback.map(\.description).joined(separator: ", "))\(stops)\(deadline)\(hedged))"
    }

    /// The output checks the conditions select (`adherence` selects every check).
    static func selection(_ conditions: [FallbackCondition]) -> OutputCheckSelection {
        var selection = OutputCheckSelection.none
        for condition in conditions {
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

    /// The smallest `timeout` threshold among the conditions, in milliseconds.
    static func timeoutMs(_ conditions: [FallbackCondition]) -> Double? {
        conditions.compactMap { if case .timeout(let ms) = $0 { ms } else { nil } }.min()
    }
}

extension OutputCheckSelection {
    /// The written form of a routing block's `fallbackOnOutput`, in a fixed order.
    var entries: [String] {
        (schema ? ["schema"] : []) + (allConstraints ? ["constraints"] : []) + names.sorted()
    }
}
