package import Foundation

extension BundledDefaults {
    /// File name of the default config under `prompts/`.
    static let configFile = "hybrid.config.json"
    /// File name of the document's JSON Schema under `prompts/`.
    static let schemaFile = "hybrid-config.schema.json"

    /// The bundled config, validated with its templates inlined.
    ///
    /// Fails only if the repository's `prompts/` is broken, which the test suite catches before release.
    static func validated() throws(ConfigError) -> ValidatedConfig {
        guard let text = files[configFile] else {
            throw .fileAccess(path: "prompts/\(configFile)", reason: "not compiled in; run scripts/generate-bundled-config.py")
        }
        return try ConfigValidator.load(Data(text.utf8), promptFiles: .bundled)
    }
}

extension HybridConfigDocument {
    /// The defaults compiled into the library (from `prompts/hybrid.config.json`), validated, templates inlined.
    public static func bundledDefaults() throws(ConfigError) -> ValidatedConfig {
        try BundledDefaults.validated()
    }

    /// The raw bytes of the bundled default config, as in the repository.
    package static var bundledDefaultsJSON: Data { Data((BundledDefaults.files[BundledDefaults.configFile] ?? "").utf8) }

    /// The JSON Schema of this document (`prompts/hybrid-config.schema.json`).
    package static var jsonSchema: String { BundledDefaults.files[BundledDefaults.schemaFile] ?? "" }

    /// Bundled files by path relative to `prompts/` (for tests that compare them with the folder).
    package static var bundledFiles: [String: String] { BundledDefaults.files }
}
