/// Who or what produced a config.
package struct Provenance: Sendable, Hashable, Codable {
    /// A person, team or tool (`hybrid recommend`).
    package var producedBy: String?
    /// The eval run whose results chose the orders and prompts.
    package var evalRun: String?
    /// When it was produced (ISO 8601).
    package var createdAt: String?

    /// Creates provenance; every field is optional and for people only.
    package init(producedBy: String? = nil, evalRun: String? = nil, createdAt: String? = nil) {
        self.producedBy = producedBy
        self.evalRun = evalRun
        self.createdAt = createdAt
    }
}
