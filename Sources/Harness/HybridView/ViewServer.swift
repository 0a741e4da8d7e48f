public import Foundation
import Hummingbird
public import HybridStore
import Logging
import NIOCore

/// `hybrid view`: a local web app over the store, on 127.0.0.1 only, answering only requests whose `Host` is the
/// printed address (``HostCheckMiddleware``: no DNS rebinding). Read-only (the database is opened read-only),
/// self-contained (inline CSS, no scripts, no external assets, so it works offline), and it opens nothing by
/// itself: the caller prints the URL.
///
/// Pages: `/` runs, `/run?id=` one run's report sections, `/grid?run=&feature=` the cases × arms grid with its
/// filters and paging, `/diff?run=&case=&a=&b=` a word diff of two arms' outputs, `/compare?baseline=&candidate=`
/// the cases that flipped between two runs.
public struct ViewServer: Sendable {
    /// Where the viewer reads from.
    public let store: SQLiteResultStore

    /// A viewer over `store`; open it with `HybridDatabase.openReadOnly(path:)` so nothing can be written.
    public init(store: SQLiteResultStore) {
        self.store = store
    }

    /// Serves on 127.0.0.1:`port` (0 picks a free port) until the task is cancelled or the process gets SIGINT or
    /// SIGTERM. `onListening` gets the base URL, with the port actually bound, once the socket accepts connections.
    public func run(port: Int, onListening: @escaping @Sendable (URL) -> Void) async throws {
        var logger = Logger(label: "hybrid.view")
        logger.logLevel = .warning
        let boundPort = BoundPort()
        let router = ViewRoutes(catalog: ViewCatalog(store: store)).router(port: boundPort)
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                boundPort.set(bound)
                if let url = URL(string: "http://127.0.0.1:\(bound)/") { onListening(url) }
            },
            logger: logger
        )
        try await application.runService()
    }
}
