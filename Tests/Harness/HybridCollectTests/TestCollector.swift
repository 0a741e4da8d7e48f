import Foundation
import HybridCore
@testable import HybridEvents
import HybridCollect
import HybridTestSupport
import Synchronization

/// A collector stand-in on a `LoopbackHTTPServer`: answers each upload with the next scripted status (200 with
/// the counts once the script runs out), gunzipping and decoding every batch it accepts.
final class TestCollector: Sendable {
    private struct State {
        var script: [ScriptedResponse]
        var batches: [RouteEventBatch] = []
        var seen: Set<String> = []
    }

    /// Shared with the server's handler, which cannot capture a `Mutex` itself.
    private final class Box: Sendable {
        let lock: Mutex<State>
        init(_ state: State) { lock = Mutex(state) }
    }

    private let box: Box
    let server: LoopbackHTTPServer

    init(script: [ScriptedResponse] = []) throws {
        let box = Box(State(script: script))
        self.box = box
        let state = box
        server = try LoopbackHTTPServer { request in
            if let next = state.lock.withLock({ $0.script.isEmpty ? nil : $0.script.removeFirst() }) { return next }
            guard let json = try? Gunzip.inflate(request.body, limit: 10 << 20),
                let batch = try? JSONDecoder().decode(RouteEventBatch.self, from: json)
            else { return .json(status: 400, #"{"error":"malformed batch"}"#) }
            let response = state.lock.withLock { state -> RouteEventBatchResponse in
                state.batches.append(batch)
                let fresh = batch.events.filter { state.seen.insert($0.id).inserted }.count
                return RouteEventBatchResponse(accepted: fresh, duplicates: batch.events.count - fresh)
            }
            let body = (try? JSONEncoder().encode(response)) ?? Data()
            return .json(String(decoding: body, as: UTF8.self))
        }
    }

    var endpoint: String { server.baseURL + "/v1/events" }
    var batches: [RouteEventBatch] { box.lock.withLock { $0.batches } }
    var eventIDs: [String] { batches.flatMap { $0.events.map(\.id) } }

    func stop() { server.stop() }
}
