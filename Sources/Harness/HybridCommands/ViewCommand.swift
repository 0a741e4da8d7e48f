import ArgumentParser
import Foundation
import HybridStore
import HybridView

/// `hybrid view`: serves the read-only results viewer on 127.0.0.1 and prints its URL (it opens no browser).
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Browse stored runs in a local web app: runs, arm tables, cases × arms, diffs, flipped cases.",
        discussion: """
            Serves on 127.0.0.1 only, reads the database read-only, and needs no network (no external assets). \
            Prints the URL and serves until Ctrl-C; it opens nothing by itself.
            """
    )

    /// `--db`: the database to read (opened read-only); shared with the root command so it may come first.
    @OptionGroup var database: DatabaseOption

    @Option(help: "Port on 127.0.0.1; 0 picks a free one (the printed URL has the real port).")
    var port: Int = 8765

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
    }

    func run() async throws {
        try await CLIOutput.run {
            guard case .sqlite(let path) = try database.store else {
                // The viewer pages through SQL of its own (SQLite); reports, compare and recommend read either backend.
                throw CLIError("hybrid view reads a SQLite file only; for \(database.shown) use `hybrid report RUN`")
            }
            let opened = try HybridDatabase.openReadOnly(path: path)
            let server = ViewServer(store: SQLiteResultStore(database: opened))
            do {
                try await server.run(port: port) { url in
                    // Written and flushed at once: scripts and tests read the URL from a pipe.
                    FileHandle.standardOutput.write(Data("hybrid view: serving \(opened.path) at \(url.absoluteString) (Ctrl-C stops)\n".utf8))
                }
            } catch where "\(error)".contains("Address already in use") {
                throw CLIError("port \(port) on 127.0.0.1 is in use (another hybrid view?); pass --port 0 for a free one")
            }
        }
    }
}
