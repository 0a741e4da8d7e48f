/// An arm selector in a gates file: `*` (every arm), `@model` (every variant on a model), `variant@` (a variant
/// on every model), or an exact arm id `variant@model`.
public struct ArmPattern: Sendable, Hashable {
    private enum Kind: Hashable {
        case any
        case model(String)
        case variant(String)
        case exact(String)
    }

    private let kind: Kind

    /// Parses a pattern; nil for an empty string.
    public init?(_ text: String) {
        if text.isEmpty { return nil }
        if text == "*" {
            kind = .any
        } else if text.hasPrefix("@") {
            kind = .model(String(text.dropFirst()))
        } else if text.hasSuffix("@") {
            kind = .variant(String(text.dropLast()))
        } else {
            kind = .exact(text)
        }
    }

    /// Whether the pattern selects `arm`.
    public func matches(_ arm: ArmSummary) -> Bool {
        switch kind {
        case .any: true
        case .model(let model): arm.modelID == model
        case .variant(let variant): arm.promptVariant == variant
        case .exact(let id): arm.armID == id
        }
    }

    /// 0 for `*`, 1 for `@model` / `variant@`, 2 for an exact id: more specific entries override.
    var specificity: Int {
        switch kind {
        case .any: 0
        case .model, .variant: 1
        case .exact: 2
        }
    }
}
