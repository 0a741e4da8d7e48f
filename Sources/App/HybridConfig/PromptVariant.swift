/// One named prompt: optional instructions and a template, inline or in a file under `prompts/`.
public struct PromptVariant: Sendable, Hashable, Codable {
    /// Overrides the feature's instructions for this variant.
    public var instructions: String?
    /// The `{{variable}}` template, inline.
    public var template: String?
    /// A template file relative to `prompts/` (such as `summarize/concise.txt`); set this or `template`, not both.
    /// The loader replaces it with the file's text, so the effective config always carries `template`.
    public var templateFile: String?

    /// Creates a variant; give `template` or `templateFile`, not both.
    public init(instructions: String? = nil, template: String? = nil, templateFile: String? = nil) {
        self.instructions = instructions
        self.template = template
        self.templateFile = templateFile
    }
}
