/// Joins streamed ``ToolCallDelta``s into complete ``ToolCall``s, in index order.
///
/// Every streaming adapter uses it so a streamed response carries the same calls a non-streamed one would.
package struct ToolCallAssembler: Sendable, Hashable {
    private struct Partial: Sendable, Hashable {
        var id: String?
        var name: String?
        var arguments = ""
    }

    private var partials: [Int: Partial] = [:]

    /// An assembler with no calls yet.
    package init() {}

    /// Whether no fragment has arrived.
    package var isEmpty: Bool { partials.isEmpty }

    /// Adds one fragment: the first id and name seen for an index win, argument text is appended.
    package mutating func add(_ delta: ToolCallDelta) {
        var partial = partials[delta.index] ?? Partial()
        if partial.id == nil || partial.id == "" { partial.id = delta.id }
        if partial.name == nil || partial.name == "" { partial.name = delta.name }
        partial.arguments += delta.argumentsFragment
        partials[delta.index] = partial
    }

    /// The calls so far, by index. A call that never got an id gets `call_<index>`; one that never got a name has
    /// an empty name (which ``ToolCallCheck`` reports as a call to an unknown tool).
    package var calls: [ToolCall] {
        partials.sorted { $0.key < $1.key }.map { index, partial in
            ToolCall(id: partial.id ?? "call_\(index)", name: partial.name ?? "", argumentsText: partial.arguments)
        }
    }
}
