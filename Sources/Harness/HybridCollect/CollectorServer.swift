public import Foundation
import Hummingbird
import HybridCore
import HybridEvents
import Logging
import NIOCore

/// `hybrid collect`: the HTTP endpoint apps' `HTTPBatchEventUploader` posts to. `POST /v1/events` takes a
/// `RouteEventBatch` (plain or `Content-Encoding: gzip`), checks the bearer token in constant time, refuses bodies
/// over ``maximumBodyBytes`` (413), stores the valid events and answers 200 with a `RouteEventBatchResponse` that
/// counts the refused ones with their reasons. Events are keyed by id, so a re-sent batch changes nothing.
public struct CollectorServer: Sendable {
    /// Largest accepted body, compressed or not, and largest body after decompression.
    public let maximumBodyBytes: Int
    /// The expected bearer token; nil accepts any request (loopback use only).
    private let token: String?
    private let ingestor: FieldEventIngestor

    /// A collector storing through `ingestor`; `token` nil disables the check.
    public init(ingestor: FieldEventIngestor, token: String?, maximumBodyBytes: Int = 8 << 20) {
        self.ingestor = ingestor
        self.token = token
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Serves on `host`:`port` (0 picks a free port) until cancelled or SIGINT/SIGTERM; `onListening` gets the
    /// endpoint URL with the bound port.
    public func run(host: String = "127.0.0.1", port: Int, onListening: @escaping @Sendable (URL) -> Void) async throws {
        var logger = Logger(label: "hybrid.collect")
        logger.logLevel = .warning
        let application = Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                if let url = URL(string: "http://\(host):\(bound)/v1/events") { onListening(url) }
            },
            logger: logger
        )
        try await application.runService()
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        let server = self
        router.post("/v1/events") { request, _ in
            await server.handle(request)
        }
        return router
    }

    private func handle(_ request: Request) async -> Response {
        do {
            try authorize(request.headers[.authorization])
            if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBodyBytes {
                throw CollectError.tooLarge(limit: maximumBodyBytes)
            }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: maximumBodyBytes)
            } catch {
                throw CollectError.tooLarge(limit: maximumBodyBytes)
            }
            var data = Data(buffer: body)
            if request.headers[.contentEncoding]?.lowercased() == "gzip" {
                do {
                    data = try Gunzip.inflate(data, limit: maximumBodyBytes)
                } catch .tooLarge {
                    throw CollectError.tooLarge(limit: maximumBodyBytes)
                } catch {
                    throw CollectError.unreadable("gzip: body is not complete gzip data")
                }
            }
            let batch = try LenientEventBatch(data: data)
            let answer = try await ingestor.ingest(batch.events)
            return Self.json(answer, status: .ok)
        } catch let error as CollectError {
            return Self.json(["error": error.message], status: HTTPResponse.Status(code: error.httpStatus))
        } catch {
            // Every event the store could not take for the event's own sake was refused before the store was
            // touched; what is left (disk full, database gone, a lock held too long) is the store's, so the app's
            // uploader keeps the batch and retries later instead of dropping it.
            var response = Self.json(["error": "the store cannot take events now: \(error); retry later"], status: .serviceUnavailable)
            response.headers[.retryAfter] = "5"
            return response
        }
    }

    /// Constant-time comparison of the presented token with the expected one, so response timing does not reveal
    /// how many leading bytes matched.
    private func authorize(_ header: String?) throws(CollectError) {
        guard let token else { return }
        let presented = Array((header ?? "").utf8)
        let expected = Array("Bearer \(token)".utf8)
        var difference = UInt8(presented.count == expected.count ? 0 : 1)
        for index in 0..<expected.count {
            difference |= expected[index] ^ (index < presented.count ? presented[index] : 0)
        }
        guard difference == 0 else { throw CollectError.unauthorized }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
