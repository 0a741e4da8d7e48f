/// A document that passed validation, with its template files inlined.
public struct ValidatedConfig: Sendable {
    /// The effective document: every `templateFile` replaced by the file's text in `template`.
    public var document: HybridConfigDocument
    /// Problems that do not block the document (unknown keys, a schema on a model without structured output).
    public var warnings: [ConfigIssue]
    /// Where each file-based template came from: variant path (`features.summarize.variants.concise`) → file.
    package var templateFiles: [String: String]
}
