package import Foundation
package import HybridConfig

extension BundledDefaults {
    /// File name of the default config under `prompts/`.
    static let configFile = "hybrid.config.json"
    /// File name of the document's JSON Schema under `prompts/`.
    static let schemaFile = "hybrid-config.schema.json"
}

extension HybridConfigDocument {
    /// The harness's defaults (from `prompts/hybrid.config.json`): its models and the bundled datasets' features,
    /// validated, templates inlined. Not in the app's modules: an app bundles its own config.
    ///
    /// Fails only if the repository's `prompts/` is broken, which the test suite catches before release.
    package static func bundledDefaults() throws(ConfigError) -> ValidatedConfig {
        guard let text = BundledDefaults.files[BundledDefaults.configFile] else {
            throw .fileAccess(
                path: "prompts/\(BundledDefaults.configFile)", reason: "not compiled in; run scripts/generate-bundled-config.py")
        }
        return try ConfigValidator.load(Data(text.utf8), promptFiles: .bundled)
    }

    /// The raw bytes of the bundled default config, as in the repository.
    package static var bundledDefaultsJSON: Data { Data((BundledDefaults.files[BundledDefaults.configFile] ?? "").utf8) }

    /// The JSON Schema of this document (`prompts/hybrid-config.schema.json`).
    package static var jsonSchema: String { BundledDefaults.files[BundledDefaults.schemaFile] ?? "" }

    /// Bundled files by path relative to `prompts/` (for tests that compare them with the folder).
    package static var bundledFiles: [String: String] { BundledDefaults.files }
}

extension ConfigLoader {
    /// A loader whose fallback is the harness's defaults, over any snapshot cache (by default one in memory).
    package static func withBundledDefaults(
        sourceURL: String?,
        fetcher: ConfigFetcher?,
        cache: any ConfigSnapshotCache = InMemoryConfigSnapshotCache(),
        verifier: ConfigSignatureVerifier? = nil,
        options: Options = Options()
    ) throws(ConfigError) -> ConfigLoader {
        ConfigLoader(
            bundled: try HybridConfigDocument.bundledDefaults(), sourceURL: sourceURL, fetcher: fetcher, cache: cache,
            verifier: verifier, promptFiles: .bundled, options: options)
    }
}
