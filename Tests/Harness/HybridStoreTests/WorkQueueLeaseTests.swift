import Foundation
import HybridCore
@testable import HybridPostgres
import HybridStore
import HybridTestSupport
import HybridTesting
import Testing
import HybridProjectTestSupport

/// Lease renewal on the PostgreSQL work queue. Leases are run out by editing `lease_expires_at` by hand rather than
/// by waiting, so nothing here depends on how fast the machine is.
@Suite("WorkQueue lease renewal (PostgreSQL)", .postgresServer)
struct WorkQueueLeaseTests {
    static let keys = (1...3).map { ResultKey(runID: "run-1", caseID: "case-\($0)", armID: "arm-a", repeatIndex: 0) }

    /// Runs `body` with a queue holding `keys` under run-1, and a way to run out every lease of a worker.
    func withQueue(_ body: (PostgresResultStore, _ expire: (String) async throws -> Void) async throws -> Void) async throws {
        try await PostgresServerTrait.server().withDatabase { url in
            let database = try await PostgresDatabase(url: url)
            defer { database.close() }
            let queue = PostgresResultStore(database: database)
            #expect(try await queue.createRun(Fixtures.run(), queueing: Self.keys))
            try await body(queue) { worker in
                try await database.execute(
                    "UPDATE work_claims SET lease_expires_at = now() - interval '1 second' WHERE worker_id = '\(worker)'")
            }
        }
    }

    @Test("a renewed lease keeps its keys from other workers even past the original expiry; stored keys are not renewed")
    func renewalHoldsTheBatch() async throws {
        try await withQueue { queue, expire in
            let batch = try await queue.claim(run: "run-1", worker: "a", limit: 2, lease: .seconds(60))
            #expect(batch == Array(Self.keys.prefix(2)))
            // The batch ran past its lease; renewing takes the keys back before anyone else claims them.
            try await expire("a")
            #expect(try await queue.renewLeases(run: "run-1", worker: "a", lease: .seconds(60)) == 2)
            #expect(try await queue.claim(run: "run-1", worker: "b", limit: 10, lease: .seconds(60)) == [Self.keys[2]])
            // A stored key leaves the queue, so the next renewal no longer counts it.
            #expect(try await queue.insertResult(Fixtures.minimalResult(caseID: "case-1")))
            #expect(try await queue.renewLeases(run: "run-1", worker: "a", lease: .seconds(60)) == 1)
            #expect(try await queue.renewLeases(run: "other-run", worker: "a", lease: .seconds(60)) == 0)
        }
    }

    @Test("a worker that stops renewing (killed) loses its keys to the next claim, and cannot renew them back")
    func killedWorkerKeysComeBack() async throws {
        try await withQueue { queue, expire in
            #expect(try await queue.claim(run: "run-1", worker: "doomed", limit: 2, lease: .seconds(60)).count == 2)
            try await expire("doomed")
            let taken = try await queue.claim(run: "run-1", worker: "survivor", limit: 10, lease: .seconds(60))
            #expect(taken == Self.keys)
            #expect(try await queue.renewLeases(run: "run-1", worker: "doomed", lease: .seconds(60)) == 0)
            #expect(try await queue.renewLeases(run: "run-1", worker: "survivor", lease: .seconds(60)) == 3)
        }
    }
}
