import ArgumentParser
import Foundation
import HybridCollect
import HybridStore

/// `hybrid collect`: receives apps' router events over HTTP and stores them as field runs.
struct CollectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Receive router events from apps (POST /v1/events) into field runs, one per feature and config version.",
        discussion: """
            Takes the HTTP uploader's RouteEventBatch bodies (gzip or plain). With --token-env NAME a request must \
            carry `Authorization: Bearer <value of NAME>` (401 otherwise); bodies over --max-body-bytes get 413. \
            Malformed events are refused with their index and reason while the rest of the batch is kept; events \
            are keyed by id, so a re-sent batch changes nothing. Prints the endpoint URL and serves until Ctrl-C.
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "HOST:PORT to listen on; port 0 picks a free one (the printed URL has the real port).")
    var listen: String = "127.0.0.1:8787"

    @Option(help: "Environment variable holding the bearer token uploads must present (never printed).")
    var tokenEnv: String?

    @Option(help: "Largest request body accepted, compressed or decompressed.")
    var maxBodyBytes: Int = 8 << 20

    func validate() throws {
        guard let (_, port) = Self.split(listen), (0...65_535).contains(port) else {
            throw ValidationError("--listen must be HOST:PORT with a port 0…65535, e.g. 127.0.0.1:0")
        }
        guard maxBodyBytes >= 1_024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
        // Anyone who can reach the port could write field events, and so steer recommendations: off loopback, a
        // token is required.
        if let (host, _) = Self.split(listen), !Self.isLoopback(host), tokenEnv == nil {
            throw ValidationError(
                "--listen \(listen) accepts uploads from the network: pass --token-env NAME (a variable holding the "
                    + "bearer token uploads must present), or listen on 127.0.0.1")
        }
    }

    /// 127.0.0.0/8, ::1 and localhost: only this machine can connect.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    func run() async throws {
        try await CLIOutput.run {
            var token: String?
            if let tokenEnv {
                guard let value = ProcessInfo.processInfo.environment[tokenEnv], !value.isEmpty else {
                    throw CLIError("--token-env \(tokenEnv): the variable is not set or empty")
                }
                token = value
            }
            let (host, port) = Self.split(listen)!
            let location = try database.store
            let server = CollectorServer(
                ingestor: FieldEventIngestor(store: try await location.fieldEvents()), token: token,
                maximumBodyBytes: maxBodyBytes)
            let path = location.shown
            try await server.run(host: host, port: port) { url in
                // Written and flushed at once: scripts and tests read the URL from a pipe.
                FileHandle.standardOutput.write(Data("hybrid collect: storing into \(path) at \(url.absoluteString) (Ctrl-C stops)\n".utf8))
            }
        }
    }

    static func split(_ listen: String) -> (String, Int)? {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]) else {
            return nil
        }
        let host = String(listen[..<colon])
        return host.isEmpty ? nil : (host, port)
    }
}

/// `hybrid ingest FILE…`: JSON Lines event files into field runs.
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store router events from JSON Lines files (JSONLinesEventSink output) into field runs.",
        discussion: "Bad lines are named by file and line and skipped; the rest are kept. Idempotent by event id."
    )

    @OptionGroup var database: DatabaseOption

    @Argument(help: "JSON Lines files of RouteEvent objects.")
    var files: [String]

    func run() async throws {
        try await CLIOutput.run {
            let ingest = JSONLinesIngest(ingestor: FieldEventIngestor(store: try await database.store.fieldEvents()))
            var rejectedAny = false
            for file in files {
                let outcome = try await ingest.ingest(path: file)
                for line in outcome.rejected { CLIOutput.error("\(line)") }
                rejectedAny = rejectedAny || !outcome.rejected.isEmpty
                print("\(file): \(outcome.accepted) stored, \(outcome.duplicates) already stored, \(outcome.rejected.count) refused")
            }
            if rejectedAny { throw ExitCode(1) }
        }
    }
}
