import ArgumentParser
import Foundation
import HybridConfig
import HybridConfigTools
import HybridRecommend
import HybridCurl

/// `hybrid config publish FILE --to URL`: a conditional upload of a validated config.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Validate a config and upload it where apps fetch it (HTTP PUT with If-Match, or file://).",
        discussion: """
            The upload is conditional on the ETag last seen for the destination (--if-match, else the latest one \
            recorded in the database by an earlier publish or fetch); with none known it only creates. When the \
            destination changed meanwhile it is refused: fetch, review the diff, publish again. The version must \
            be above the one published there. With --key the exact bytes are signed (X-Hybrid-Signature header and \
            URL.sig; FILE.sig beside a file).
            """)

    @Argument(help: "The config file to publish, byte for byte.")
    var file: String

    @OptionGroup var target: PublishTarget

    func run() async throws {
        try await CLIOutput.run {
            guard let body = FileManager.default.contents(atPath: file) else {
                throw CLIError("cannot read \(file)")
            }
            let resolver = PromptFileResolver.forConfigFile(file)
            let outcome = try await target.publisher().publish(body, to: target.destination, options: target.options(promptFiles: resolver))
            target.report(outcome)
        }
    }
}

/// `hybrid config rollback VERSION --to URL`: republishes an earlier version as the next version.
struct RollbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Republish an earlier published version (from the snapshot history) as a new, higher version.",
        discussion: """
            Apps refuse configs whose version is lower than the one they use, so a rollback does not go back in \
            version: it takes the content of VERSION from the database's snapshot history and publishes it as \
            (highest recorded version + 1), conditional on the latest recorded ETag like `config publish`.
            """)

    @Argument(help: "The version to bring back.")
    var version: Int

    @OptionGroup var target: PublishTarget

    func run() async throws {
        try await CLIOutput.run {
            let outcome = try await target.publisher().rollback(
                to: version, destination: target.destination, options: target.options(promptFiles: .bundled))
            target.report(outcome)
        }
    }
}

/// Where and how `config publish` and `config rollback` upload: the destination, the ETag condition, signing.
struct PublishTarget: ParsableArguments {
    @Option(help: "Destination: https://…, http://127.0.0.1…, or file:///path.")
    var to: String

    @Option(help: "The ETag the upload is based on (from `hybrid config fetch`); the latest recorded one when omitted; `*` overwrites whatever is there.")
    var ifMatch: String?

    @Option(help: "Ed25519 private key file (from `hybrid config keygen`) to sign with.")
    var key: String?

    @Flag(help: "Validate and show what would be sent; upload nothing.")
    var dryRun = false

    @Flag(help: "Publish even with keys no HybridAI version knows, or conditions on labels the document does not declare (refused by default: most often a misspelling).")
    var allowUnknownKeys = false

    @OptionGroup var database: DatabaseOption

    /// A bare path becomes an absolute `file://` URL, so the snapshot history is keyed the same way every time.
    var destination: String {
        to.contains("://") ? to : URL(fileURLWithPath: to).absoluteURL.absoluteString
    }

    func publisher() async throws -> ConfigPublisher {
        ConfigPublisher(transport: CurlTransport.shared, snapshots: try await database.store.snapshots())
    }

    func options(promptFiles: PromptFileResolver) throws -> ConfigPublisher.Options {
        var options = ConfigPublisher.Options(
            ifMatch: ifMatch, dryRun: dryRun,
            signer: try key.map { path throws(ConfigError) in try ConfigSigner(privateKeyFile: path) },
            promptFiles: promptFiles)
        options.allowUnknownKeys = allowUnknownKeys
        return options
    }

    func report(_ outcome: PublishOutcome) {
        print(outcome.description)
        for warning in outcome.warnings { CLIOutput.error("warning: \(warning)") }
    }
}

extension HybridConfigDocument {
    /// Writes a recommended config to `path` (creating its folder) and tells the user how to publish it; shared by
    /// `hybrid recommend` on eval runs and on field runs.
    func writeRecommended(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encodedJSON().write(to: url, options: .atomic)
        print("")
        print("wrote \(path); publish it with `hybrid config publish \(path) --to URL`")
    }
}
