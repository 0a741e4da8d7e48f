public import HybridConfig
import Foundation
import HybridCore

/// Human-readable differences between two documents: versions, models and prices, prompts, orders, rollouts.
public enum ConfigDiff {
    /// Changes from `old` to `new`, models first, then features, then rollouts; empty when they are equal.
    public static func changes(from old: HybridConfigDocument, to new: HybridConfigDocument) -> [ConfigChange] {
        var out: [ConfigChange] = []
        func note<T: Equatable>(_ path: String, _ a: T, _ b: T, _ show: (T) -> String) {
            if a != b { out.append(ConfigChange(path: path, summary: "\(show(a)) → \(show(b))")) }
        }
        note("version", old.version, new.version) { String($0) }
        note("description", old.description, new.description) { $0.map { "\"\($0)\"" } ?? "none" }
        note("provenance", old.provenance, new.provenance) { p in
            p.map { [$0.producedBy, $0.evalRun.map { "eval run \($0)" }, $0.createdAt].compactMap { $0 }.joined(separator: ", ") } ?? "none"
        }

        note("routing", old.routing, new.routing) { json($0) }
        conditions(old.conditions, new.conditions, into: &out)

        for id in Set(old.models.keys).union(new.models.keys).sorted() {
            let path = "models.\(id)"
            switch (old.models[id], new.models[id]) {
            case (nil, let m?):
                out.append(ConfigChange(path: path, summary: "added: \(m.kind.rawValue) \(m.model) (\(m.tier.rawValue)), \(price(m.pricing))"))
            case (_?, nil):
                out.append(ConfigChange(path: path, summary: "removed"))
            case (let a?, let b?):
                note(path + ".kind", a.kind, b.kind) { $0.rawValue }
                note(path + ".model", a.model, b.model) { $0 }
                note(path + ".tier", a.tier, b.tier) { $0.rawValue }
                note(path + ".baseURL", a.baseURL, b.baseURL) { $0 ?? "none" }
                note(path + ".apiKeyEnv", a.apiKeyEnv, b.apiKeyEnv) { $0 ?? "none" }
                note(path + ".pricing.inputPerMillion", a.pricing?.inputPerMillion, b.pricing?.inputPerMillion) { $0.map { "$\(number($0))/M" } ?? "unknown" }
                note(path + ".pricing.outputPerMillion", a.pricing?.outputPerMillion, b.pricing?.outputPerMillion) { $0.map { "$\(number($0))/M" } ?? "unknown" }
                note(path + ".pricing.cachedInputPerMillion", a.pricing?.cachedInputPerMillion, b.pricing?.cachedInputPerMillion) {
                    $0.map { "$\(number($0))/M" } ?? "none"
                }
                note(path + ".contextWindow", a.contextWindow, b.contextWindow) { String($0) }
                note(path + ".maxOutputTokens", a.maxOutputTokens, b.maxOutputTokens) { $0.map(String.init) ?? "none" }
                note(path + ".capabilities", a.capabilities, b.capabilities) {
                    "structuredOutput \($0.structuredOutput), streaming \($0.streaming)"
                }
                note(path + ".displayName", a.displayName, b.displayName) { $0 ?? "none" }
            case (nil, nil):
                break
            }
        }

        for name in Set(old.features.keys).union(new.features.keys).sorted() {
            let path = "features.\(name)"
            switch (old.features[name], new.features[name]) {
            case (nil, let f?):
                out.append(ConfigChange(path: path, summary: "added: variants \(f.variants.keys.sorted().joined(separator: ", ")); priority \(f.priority.joined(separator: ", "))"))
            case (_?, nil):
                out.append(ConfigChange(path: path, summary: "removed"))
            case (let a?, let b?):
                note(path + ".priority", a.priority, b.priority) { $0.joined(separator: ", ") }
                note(path + ".privacy", a.privacy, b.privacy) { $0.rawValue }
                note(path + ".defaultVariant", a.defaultVariant, b.defaultVariant) { $0 }
                note(path + ".inputs", a.inputs, b.inputs) { $0.joined(separator: ", ") }
                note(path + ".deadlineMs", a.deadlineMs, b.deadlineMs) { $0.map { "\($0) ms" } ?? "none" }
                note(path + ".monthlyBudgetUSD", a.monthlyBudgetUSD, b.monthlyBudgetUSD) { $0.map { "$\(number($0))" } ?? "none" }
                note(path + ".options", a.options, b.options) { json($0) }
                note(path + ".outputSchema", a.outputSchema?.source, b.outputSchema?.source) { json($0) }
                note(path + ".constraints", a.constraints, b.constraints) { json($0) }
                note(path + ".routing", a.routing, b.routing) { json($0) }
                note(path + ".events.includeContent", a.events?.includeContent ?? false, b.events?.includeContent ?? false) { "\($0)" }
                note(path + ".inputRules", a.inputRules ?? [], b.inputRules ?? []) { rules in
                    rules.isEmpty ? "none" : rules.map { "\($0.name): \($0.plainWords)" }.joined(separator: "; ")
                }
                for condition in Set((a.overrides ?? [:]).keys).union((b.overrides ?? [:]).keys).sorted() {
                    note(path + ".overrides.\(condition)", a.overrides?[condition], b.overrides?[condition]) { json($0) }
                }
                text(path + ".instructions", a.instructions, b.instructions, into: &out)
                for variant in Set(a.variants.keys).union(b.variants.keys).sorted() {
                    let vpath = path + ".variants.\(variant)"
                    switch (a.variants[variant], b.variants[variant]) {
                    case (nil, _?): out.append(ConfigChange(path: vpath, summary: "added"))
                    case (_?, nil): out.append(ConfigChange(path: vpath, summary: "removed"))
                    case (let va?, let vb?):
                        note(vpath + ".templateFile", va.templateFile, vb.templateFile) { $0 ?? "inline" }
                        text(vpath + ".instructions", va.instructions, vb.instructions, into: &out)
                        text(vpath + ".template", va.template, vb.template, into: &out)
                    case (nil, nil): break
                    }
                }
            case (nil, nil):
                break
            }
        }

        for name in Set(old.rollouts.keys).union(new.rollouts.keys).sorted() {
            let path = "rollouts.\(name)"
            switch (old.rollouts[name], new.rollouts[name]) {
            case (nil, let r?): out.append(ConfigChange(path: path, summary: "added: \(arms(r))"))
            case (_?, nil): out.append(ConfigChange(path: path, summary: "removed"))
            case (let a?, let b?):
                note(path + ".seed", a.seed, b.seed) { $0 }
                if a.arms != b.arms { out.append(ConfigChange(path: path + ".arms", summary: "\(arms(a)) → \(arms(b))")) }
            case (nil, nil): break
            }
        }
        return out
    }

    /// Conditions by name (added, removed, changed) and, when their order changed, the new order: the first match
    /// wins, so order is meaning.
    private static func conditions(_ old: [ConfigCondition], _ new: [ConfigCondition], into out: inout [ConfigChange]) {
        let before = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in Set(before.keys).union(after.keys).sorted() {
            let path = "conditions.\(name)"
            switch (before[name], after[name]) {
            case (nil, let c?): out.append(ConfigChange(path: path, summary: "added: \(json(c))"))
            case (_?, nil): out.append(ConfigChange(path: path, summary: "removed"))
            case (let a?, let b?) where a != b: out.append(ConfigChange(path: path, summary: "\(json(a)) → \(json(b))"))
            default: break
            }
        }
        let oldOrder = old.map(\.name).filter { after[$0] != nil }, newOrder = new.map(\.name).filter { before[$0] != nil }
        if oldOrder != newOrder || (old.map(\.name) != new.map(\.name) && !old.isEmpty && !new.isEmpty) {
            out.append(ConfigChange(path: "conditions", summary: "order \(old.map(\.name).joined(separator: ", ")) → \(new.map(\.name).joined(separator: ", ")) (first match wins)"))
        }
    }

    /// The changes as text, one per line (prompt changes as `-`/`+` lines); "no differences" when equal.
    public static func render(from old: HybridConfigDocument, to new: HybridConfigDocument) -> String {
        let list = changes(from: old, to: new)
        return list.isEmpty ? "no differences" : list.map(\.description).joined(separator: "\n")
    }

    private static func price(_ p: ModelPricing?) -> String {
        guard let p else { return "price unknown" }
        return "$\(number(p.inputPerMillion)) in / $\(number(p.outputPerMillion)) out"
            + (p.cachedInputPerMillion.map { " / $\(number($0)) cached" } ?? "") + " per M tokens"
    }

    private static func arms(_ r: RolloutConfig) -> String {
        r.arms.map { arm in
            var parts = ["\(arm.name) \(number(arm.percentage))%"]
            if let v = arm.variant { parts.append("variant \(v)") }
            if let p = arm.priority { parts.append("priority \(p.joined(separator: ", "))") }
            if let rules = arm.inputRules { parts.append("input rules \(rules.isEmpty ? "none" : rules.map(\.name).joined(separator: ", "))") }
            return parts.joined(separator: " ")
        }.joined(separator: "; ")
    }

    private static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }

    private static func json<T: Encodable>(_ value: T?) -> String {
        guard let value else { return "none" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    /// A line diff of two prompt texts (longest common subsequence; prompts are short).
    private static func text(_ path: String, _ a: String?, _ b: String?, into out: inout [ConfigChange]) {
        guard a != b else { return }
        let old = a.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
        let new = b.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
        var lcs = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lcs[i][j] = old[i] == new[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var lines: [String] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                i += 1
                j += 1
            } else if i < old.count, j == new.count || lcs[i + 1][j] >= lcs[i][j + 1] {
                lines.append("  - \(old[i])")
                i += 1
            } else {
                lines.append("  + \(new[j])")
                j += 1
            }
        }
        out.append(ConfigChange(path: path, summary: lines.joined(separator: "\n")))
    }
}
