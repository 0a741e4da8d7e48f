import Foundation
@testable import HybridCore
@testable import HybridEvents
@testable import HybridTestSupport
import Testing

/// Nothing an app hands the uploader is lost when its process exits without `flush()` (#66): with a spool, the exit
/// drain (`atexit`) writes what the inbox holds to the spool, and the next uploader on the same directory sends it.
@Suite("HTTPBatchEventUploader: the spool at exit")
struct HTTPBatchEventUploaderSpoolTests {
    @Test("after the exit drain every recorded event is in the spool, once, and a new uploader picks them all up")
    func recordWritesThrough() async throws {
        try await withTemporaryDirectory { directory in
            // Nothing listens on port 9 and no batch is due for an hour: the events can only be in the spool.
            let configuration = HTTPBatchEventUploader.Configuration(
                endpoint: "http://127.0.0.1:9/events", spoolDirectory: directory.url, maxBatchAge: .seconds(3_600))
            let uploader = HTTPBatchEventUploader(configuration: configuration)
            for index in 0..<50 { uploader.record(.fixture(index)) }
            uploader.drainAtExit()  // what the `atexit` handler runs; the actor may have spooled some already
            let spool = directory.url.appendingPathComponent("spool.jsonl")
            let written = try RouteEventLines.read(spool).events.map(\.id)
            #expect(written.sorted() == (0..<50).map { "event-\($0)" }.sorted(), "each event once, none lost")

            let next = HTTPBatchEventUploader(configuration: configuration)
            #expect(await next.currentStatus.pending == 50, "a later uploader on the directory holds them all")
            _ = uploader  // kept alive until here
        }
    }
}
