import ArgumentParser
import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridProviders
import HybridRunner
import HybridStore
import HybridCurl
import HybridTransport
import Logging
import Synchronization

/// Options every command that needs the config or the database shares.
///
/// The root command declares them too, so they work before the subcommand (`hybrid --db X report RUN`) as well as
/// after it: ArgumentParser hands an option group the root decoded down to every subcommand declaring the same type.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "Config file or URL (https://, http://127.0.0.1…, file://); the bundled defaults when omitted.")
    var config: String?

    @OptionGroup var database: DatabaseOption

    @Flag(name: .long, help: "Log provider requests and outcomes to stderr (API keys are redacted).")
    var verbose = false

    @Flag(name: .long, help: "With a --config URL that cannot be fetched and has no last-known-good copy, run on the bundled defaults instead of failing.")
    var allowBundledFallback = false

    /// Where the stores are (`--db`), parsed.
    var store: StoreLocation {
        get throws { try database.store }
    }

    /// Routes swift-log output to stderr at debug level with `--verbose`, else warnings only. Once per process.
    func bootstrapLogging() {
        let level: Logger.Level = verbose ? .debug : .warning
        let exportLevel: Logger.Level = verbose ? .debug : .error
        LoggingBootstrap.once.withLock { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                // HybridOTLP warns as export starts failing, for apps; the CLI says it once, at the end (OTLPOptions).
                handler.logLevel = label == "HybridOTLP" ? exportLevel : level
                return handler
            }
        }
    }

    /// The config in force and a hash naming it. Every command that needs the config comes through here, so this is
    /// also where logging is set up.
    func loadConfig() async throws -> (document: HybridConfigDocument, hash: String, source: String) {
        bootstrapLogging()
        guard let config else {
            let document = try HybridConfigDocument.bundledDefaults().document
            return (document, Self.hash(document), "bundled defaults")
        }
        if config.contains("://") {
            let loader = try ConfigLoader.withBundledDefaults(
                sourceURL: config, fetcher: ConfigFetcher(transport: CurlTransport.shared),
                cache: try await store.configCache())
            // A database that cannot be read fails the command, as opening it did before the cache read lazily.
            if let cacheError = await loader.start().cacheError { throw cacheError }
            let resolution = await loader.refresh()
            if let reason = resolution.reasonNewOneRejected {
                // An app falls back to the defaults; a command asked for this config, and running on another one
                // would store results under a config nobody chose.
                if resolution.source == .bundled && !allowBundledFallback {
                    throw CLIError(
                        "cannot use --config \(URLRedaction.redact(config)): \(reason); there is no last-known-good copy "
                            + "in \(database.shown). Fix the URL or the server, or pass --allow-bundled-fallback to run on the bundled defaults")
                }
                CLIOutput.error("warning: \(URLRedaction.redact(config)) was not used: \(reason); using \(resolution.source)")
            }
            return (resolution.config, Self.hash(resolution.config), resolution.source.description)
        }
        guard let data = FileManager.default.contents(atPath: config) else {
            throw CLIError("cannot read config file \(config)")
        }
        let resolver = PromptFileResolver.forConfigFile(config)
        let validated = try ConfigValidator.load(data, promptFiles: resolver)
        // The warnings `hybrid config validate` prints, in its words: a misspelt key is ignored here, so say so.
        for issue in validated.warnings { CLIOutput.error("\(config): \(issue)") }
        return (validated.document, Self.hash(validated.document), config)
    }

    /// The result store `--db` names (SQLite file or PostgreSQL URL).
    func openStore() async throws -> any ResultStore {
        try await store.results()
    }

    /// The config to judge stored `run` under: the one it ran under (kept with it by `hybrid eval`) unless
    /// `--config` names another, in which case the source says the run is judged under a different config.
    func loadConfig(forRun run: RunRecord, store: any ResultStore) async throws
        -> (document: HybridConfigDocument, hash: String, source: String)
    {
        if config != nil {
            let loaded = try await loadConfig()
            guard let own = run.configHash, own != loaded.hash else { return loaded }
            return (loaded.document, loaded.hash,
                    "\(loaded.source) (--config: judging run \(run.id) under it, not under the config it ran with, v\(run.configVersion ?? 0))")
        }
        bootstrapLogging()
        if let hash = run.configHash, let document = try await Self.ownConfig(of: run, store: store) {
            return (document, hash, "the config run \(run.id) ran with (v\(document.version), kept in \(database.shown))")
        }
        let loaded = try await loadConfig()
        return (loaded.document, loaded.hash, loaded.source + " (run \(run.id) kept no config of its own; pass --config to choose)")
    }

    /// The config `run` ran with, as the store keeps it; nil when it kept none.
    static func ownConfig(of run: RunRecord, store: any ResultStore) async throws -> HybridConfigDocument? {
        guard let hash = run.configHash, let body = try await store.config(hash: hash) else { return nil }
        return try ConfigValidator.load(Data(body.utf8), checkUnknownKeys: false).document
    }

    static func hash(_ document: HybridConfigDocument) -> String {
        ContentHash.hex(of: document.encodedJSON(pretty: false))
    }
}

/// `--db`: its own type so commands that need only the database (`report`, `simulate`, `config publish`) share
/// the root command's value, given before or after the subcommand.
struct DatabaseOption: ParsableArguments {
    // Optional with the default applied below: a default from HYBRID_DB_URL would print its password in --help.
    @Option(
        name: .customLong("db"),
        help: "Where runs, results, the response cache and config snapshots live: a SQLite file (a path, file://PATH or sqlite://PATH; default .hybrid/hybrid.sqlite) or a shared postgres://USER@HOST:PORT/DATABASE (password from the URL or PGPASSWORD); any other URL is refused. Default: $HYBRID_DB_URL when set.")
    var location: String?

    /// The database as given: `--db`, else `HYBRID_DB_URL`, else the SQLite file `.hybrid/hybrid.sqlite`.
    var given: String {
        location ?? ProcessInfo.processInfo.environment["HYBRID_DB_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? ".hybrid/hybrid.sqlite"
    }

    /// `given` parsed: the one way a command opens a store, so a URL is never taken for a file name.
    var store: StoreLocation {
        get throws(ValidationError) { try StoreLocation(parsing: given, source: location == nil ? "HYBRID_DB_URL" : "--db") }
    }

    /// `given` as messages may show it: a URL without its user, password and query.
    var shown: String { URLRedaction.redact(given) }

    /// Refuses a location no store reads (`mysql://…`, `postgress://…`) as a usage error (exit 64), before
    /// anything is opened or created.
    func validate() throws {
        _ = try store
    }
}

/// A failure the CLI reports as one line on stderr with exit code 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum CLIOutput {
    static func error(_ message: String) {
        // What `print` buffered goes first, so a message after an answer never lands glued to it in a merged stream.
        fflush(nil)
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Runs `body`, turning any error into one readable line and exit code 1 (ArgumentParser's exit codes pass).
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ExitCode {
            throw error
        } catch {
            Self.error("error: \(error)")
            throw ExitCode.failure
        }
    }
}

/// Guards the one `LoggingSystem.bootstrap` a process may make.
enum LoggingBootstrap {
    static let once = Mutex(false)
}
