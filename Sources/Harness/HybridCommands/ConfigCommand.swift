import ArgumentParser
import Foundation
import HybridConfig
import HybridConfigTools
import HybridCurl
import HybridTransport

/// `hybrid config …`: inspect, validate, fetch, diff, sign and convert remote configs.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Inspect, validate, fetch, diff, sign and convert HybridAI configs.",
        subcommands: [
            Show.self, Validate.self, Fetch.self, Diff.self, Keygen.self, Sign.self, Verify.self, ImportFirebase.self,
            ExportFirebase.self, PublishCommand.self, RollbackCommand.self,
        ]
    )

    /// Prints the effective config and where each part came from, with anything that looks like a secret redacted.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the effective config and where each part came from.")

        @Option(help: "Remote config URL (https://, http://127.0.0.1…, file://); bundled defaults when omitted.")
        var url: String?
        @Option(help: "Base64 Ed25519 public key file; when given, unsigned or tampered payloads are refused.")
        var publicKey: String?
        @Flag(help: "Print the effective document as JSON instead of a summary.")
        var json = false

        func run() async throws {
            let verifier = try publicKey.map { path throws(ConfigError) in try ConfigSignatureVerifier(publicKeyFile: path) }
            let loader = try ConfigLoader.withBundledDefaults(
                sourceURL: url, fetcher: url.map { _ in ConfigFetcher(transport: CurlTransport.shared) }, verifier: verifier
            )
            await loader.start()
            let resolution = await loader.refresh()
            // Redacted whatever the source: a last-known-good copy or a file validated by an older build may hold
            // a key the validator now refuses.
            if json {
                print(SecretScanner.redact(String(decoding: resolution.config.encodedJSON(), as: UTF8.self)))
            } else {
                print(SecretScanner.redact(ConfigReport.describe(resolution)))
            }
            if let reason = resolution.reasonNewOneRejected {
                printError(SecretScanner.redact("the remote config was not used: \(reason)"))
                throw ExitCode(1)
            }
        }
    }

    /// Validates a config file; exit 1 with every error and its JSON path.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Validate a config file (errors with JSON paths, exit 1).")

        @Argument(help: "The config JSON file. Template files resolve against its folder, then the bundled prompts.")
        var file: String

        @Flag(help: "Accept keys no HybridAI version knows, and conditions on labels the document does not declare (refused by default: most often a misspelling).")
        var allowUnknownKeys = false

        func run() async throws {
            let data = try readFile(file)
            let issues = ConfigValidator.issues(in: data, promptFiles: .forConfigFile(file))
            let errors = issues.filter { $0.severity == .error }
            for issue in issues { printError("\(file): \(issue)") }
            guard errors.isEmpty else {
                printError("\(file): \(errors.count) error(s); the config would be rejected")
                throw ExitCode(1)
            }
            let unknown = issues.filter(\.blocksPublishing)
            guard unknown.isEmpty || allowUnknownKeys else {
                printError("\(file): \(unknown.count) unknown key(s) or undeclared label(s) above, most often a misspelling that "
                    + "silently drops targeting; `config publish` refuses them too. Fix them, declare custom labels in the "
                    + "document's \"labels\", or pass --allow-unknown-keys")
                throw ExitCode(1)
            }
            let document = try ConfigValidator.decode(data)
            print("\(file): valid (version \(document.version), \(document.models.count) models, \(document.features.count) features)")
        }
    }

    /// Fetches a config once and reports status, version, ETag and changes.
    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fetch a config URL: status 200/304, version, ETag, what changed.")

        @Argument(help: "https://…, http://127.0.0.1…, or file://…")
        var url: String
        @Option(help: "Send If-None-Match with this ETag (as printed by an earlier fetch).")
        var etag: String?
        @Option(help: "Config file to compare with; the bundled defaults when omitted.")
        var previous: String?
        @Option(help: "Base64 Ed25519 public key file; the payload must then be signed.")
        var publicKey: String?
        @Option(help: "Largest accepted body in bytes.")
        var maxBytes: Int = 2 * 1024 * 1024

        func validate() throws {
            try OptionChecks.atLeast(1, maxBytes, option: "--max-bytes")
        }

        func run() async throws {
            let fetcher = ConfigFetcher(transport: CurlTransport.shared, options: .init(maxBodyBytes: maxBytes))
            let verifier = try publicKey.map { path throws(ConfigError) in try ConfigSignatureVerifier(publicKeyFile: path) }
            do {
                switch try await fetcher.fetch(url, etag: etag, wantSignature: verifier != nil) {
                case .notModified(let etag):
                    print("304 Not Modified; ETag \(etag ?? "none"); the config in use is current")
                case .fetched(let payload):
                    print("200 OK; ETag \(payload.etag ?? "none"); \(payload.body.count) bytes; signature \(payload.signature == nil ? "none" : "present")")
                    try verifier?.verify(payload.body, signature: payload.signature, source: url)
                    let validated = try ConfigValidator.load(payload.body, promptFiles: .bundled)
                    print("version \(validated.document.version): \(validated.document.description ?? "")")
                    for warning in validated.warnings { printError("warning: \(warning)") }
                    let old: HybridConfigDocument
                    if let previous {
                        old = try ConfigValidator.load(try readFile(previous), promptFiles: .forConfigFile(previous)).document
                    } else {
                        old = try HybridConfigDocument.bundledDefaults().document
                    }
                    print("changes from \(previous ?? "bundled defaults"):")
                    print(ConfigDiff.render(from: old, to: validated.document))
                }
            } catch {
                printError("rejected: \(error)")
                throw ExitCode(1)
            }
        }
    }

    /// Human-readable differences between two config files.
    struct Diff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show what changed between two configs: prompts, orders, models, prices.")

        @Argument(help: "The old config file.") var old: String
        @Argument(help: "The new config file.") var new: String

        func run() async throws {
            let a = try resolvedDocument(old)
            let b = try resolvedDocument(new)
            print(ConfigDiff.render(from: a, to: b))
        }
    }

    /// Creates an Ed25519 key pair.
    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an Ed25519 key pair (base64 raw keys) for signing configs.")

        @Option(help: "Where to write the private key (mode 0600).") var privateKey: String
        @Option(help: "Where to write the public key (ship it with the app).") var publicKey: String

        func run() async throws {
            let signer = ConfigSigner.generate()
            try writeFile(privateKey, Data((signer.privateKeyBase64 + "\n").utf8), permissions: 0o600)
            try writeFile(publicKey, Data((signer.publicKeyBase64 + "\n").utf8), permissions: 0o644)
            print("wrote \(privateKey) (keep secret) and \(publicKey)")
        }
    }

    /// Writes a detached signature.
    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign a config file's exact bytes; writes FILE.sig (or --output).")

        @Argument(help: "The config file, signed byte for byte as it will be served.") var file: String
        @Option(help: "The private key file from `hybrid config keygen`.") var key: String
        @Option(help: "Signature file; FILE.sig when omitted.") var output: String?

        func run() async throws {
            let signature = try ConfigSigner(privateKeyFile: key).sign(try readFile(file))
            let target = output ?? file + ".sig"
            try writeFile(target, Data((signature + "\n").utf8), permissions: 0o644)
            print("wrote \(target); serve it beside the file or send it in the \(ConfigFetcher.signatureHeader) header")
        }
    }

    /// Checks a detached signature.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Verify a config file against its signature (exit 1 when it does not match).")

        @Argument(help: "The config file.") var file: String
        @Option(help: "The public key file.") var publicKey: String
        @Option(help: "Signature file; FILE.sig when omitted.") var signature: String?

        func run() async throws {
            let sigPath = signature ?? file + ".sig"
            let sig = FileManager.default.contents(atPath: sigPath).map { String(decoding: $0, as: UTF8.self) }
            do {
                try ConfigSignatureVerifier(publicKeyFile: publicKey).verify(try readFile(file), signature: sig, source: file)
            } catch {
                printError(error.description)
                throw ExitCode(1)
            }
            print("\(file): signature valid")
        }
    }

    /// Firebase template → config document.
    struct ImportFirebase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-firebase", abstract: "Convert a Firebase Remote Config template into a HybridAI config.")

        @Argument(help: "The Firebase template JSON (REST GET …/remoteConfig or a console download).") var template: String
        @Option(help: "Where to write the config; stdout when omitted.") var output: String?

        func run() async throws {
            let result = try FirebaseRemoteConfig.importTemplate(try readFile(template))
            for warning in result.warnings { printError("warning: \(warning)") }
            _ = try ConfigValidator.validate(result.document)
            try emit(result.json, to: output)
        }
    }

    /// Config document → Firebase template.
    struct ExportFirebase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export-firebase",
            abstract: "Convert a HybridAI config into a Firebase Remote Config template (template files inlined, conditions as Firebase conditions).")

        @Argument(help: "The config file; the bundled defaults when omitted.") var file: String?
        @Option(help: "Where to write the template; stdout when omitted.") var output: String?

        func run() async throws {
            let document = try file.map(resolvedDocument) ?? HybridConfigDocument.bundledDefaults().document
            try emit(try FirebaseRemoteConfig.exportTemplate(document), to: output)
        }
    }
}

/// Text rendering of a resolution for `hybrid config show`.
enum ConfigReport {
    static func describe(_ r: ConfigResolution) -> String {
        var lines: [String] = []
        let doc = r.config
        lines.append("config version \(doc.version) from \(r.source)\(r.etag.map { ", ETag \($0)" } ?? "")")
        if let fetchedAt = r.fetchedAt { lines.append("fetched at \(fetchedAt.formatted(.iso8601))") }
        if let d = doc.description { lines.append("description: \(d)") }
        if let p = doc.provenance {
            lines.append("provenance: " + [p.producedBy, p.evalRun.map { "eval run \($0)" }, p.createdAt].compactMap { $0 }.joined(separator: ", "))
        }
        lines.append("")
        lines.append("models:")
        for (id, m) in doc.models.sorted(by: { $0.key < $1.key }) {
            let cached = m.pricing?.cachedInputPerMillion.map { " / $\($0) cached" } ?? ""
            let price = m.pricing.map { "$\($0.inputPerMillion) in / $\($0.outputPerMillion) out\(cached) per M tokens" } ?? "price unknown"
            lines.append("  \(id): \(m.kind.rawValue) \(m.model) [\(m.tier.rawValue)] \(m.baseURL ?? "(managed endpoint)")")
            lines.append("    \(price); context \(m.contextWindow)\(m.apiKeyEnv.map { "; key from $\($0)" } ?? "")")
        }
        lines.append("")
        lines.append("features:")
        for (name, f) in doc.features.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name) (privacy \(f.privacy.rawValue)\(f.deadlineMs.map { ", deadline \($0) ms" } ?? "")\(f.monthlyBudgetUSD.map { ", budget $\($0)/month" } ?? ""))")
            lines.append("    priority: \(f.priority.joined(separator: " → "))")
            for variant in f.variants.keys.sorted() {
                let key = "features.\(name).variants.\(variant)"
                let origin = r.templateFiles[key].map { "prompts/\($0)" } ?? "inline"
                lines.append("    variant \(variant)\(variant == f.defaultVariant ? " (default)" : ""): template from \(origin)")
            }
            if f.outputSchema != nil { lines.append("    output: JSON schema") }
            if let c = f.constraints, !c.isEmpty { lines.append("    constraints: \(jsonText(c))") }
        }
        if !doc.rollouts.isEmpty {
            lines.append("")
            lines.append("rollouts:")
            for (name, rollout) in doc.rollouts.sorted(by: { $0.key < $1.key }) {
                let arms = rollout.arms.map { "\($0.name) \($0.percentage)%" }.joined(separator: ", ")
                lines.append("  \(name) (seed \(rollout.seed)): \(arms)")
            }
        }
        for warning in r.warnings { lines.append("warning: \(warning)") }
        if let cacheError = r.cacheError { lines.append("warning: \(cacheError)") }
        return lines.joined(separator: "\n")
    }

    private static func jsonText(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}

private func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

private func readFile(_ path: String) throws(ConfigError) -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw .fileAccess(path: path, reason: "cannot read the file (missing or not readable)")
    }
    return data
}

private func writeFile(_ path: String, _ data: Data, permissions: Int) throws(ConfigError) {
    guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: permissions]) else {
        throw .fileAccess(path: path, reason: "cannot write the file (check the folder exists and is writable)")
    }
}

private func emit(_ data: Data, to output: String?) throws(ConfigError) {
    if let output {
        try writeFile(output, data, permissions: 0o644)
    } else {
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

/// A config file validated with its template files inlined (so diffs and exports show prompt text).
private func resolvedDocument(_ file: String) throws(ConfigError) -> HybridConfigDocument {
    try ConfigValidator.load(try readFile(file), promptFiles: .forConfigFile(file)).document
}
