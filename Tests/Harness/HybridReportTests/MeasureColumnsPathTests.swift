import Foundation
import HybridCore
import HybridStore
import Testing

/// `forEachMeasureColumns`: the SQLite store fills the pages from its statements, other stores (PostgreSQL) get the
/// protocol's default, which collects whole records. Both must hand out the same pages for the same run.
@Suite("Measure columns paths")
struct MeasureColumnsPathTests {
    /// Each page's size and its rows rebuilt as values.
    private func pages(_ store: some ResultStore, batchSize: Int) async throws -> [[ResultMeasures]] {
        var pages: [[ResultMeasures]] = []
        try await store.forEachMeasureColumns(run: ReportFixtures.runID, batchSize: batchSize) { columns in
            pages.append((0..<columns.count).map { columns.measures(at: $0) })
        }
        return pages
    }

    @Test("the SQLite override and the protocol default give the same pages, across page boundaries")
    func overrideMatchesDefault() async throws {
        try await ReportFixtures.withTemporaryDirectory { directory in
            let results = StoreReportGoldenTests.results()
            let store = try await ReportFixtures.store(in: directory, runs: [(ReportFixtures.run(), results)])
            for batchSize in [7, 5_000] {
                let sqlite = try await pages(store, batchSize: batchSize)
                let fallback = try await pages(WholeRecordStore(base: store), batchSize: batchSize)
                #expect(sqlite.map(\.count) == fallback.map(\.count))
                #expect(sqlite == fallback)
                #expect(sqlite.joined().count == results.count)
                // Errors keep their message, constraints and scores their order.
                #expect(sqlite.joined().contains { $0.error?.message.contains("ANTHROPIC_API_KEY") == true })
                #expect(sqlite.joined().contains { $0.scores.count == 2 && $0.constraints.count == 2 })
            }
        }
    }

    @Test("a page coded by append reads back every value it was given")
    func appendRoundTrips() {
        let values = StoreReportGoldenTests.results().map(ResultMeasures.init)
        var columns = MeasureColumns(runID: ReportFixtures.runID)
        for value in values { columns.append(value) }
        #expect(columns.count == values.count)
        #expect((0..<columns.count).map { columns.measures(at: $0) } == values)
        // Texts are stored once: the arms, features and names repeat across rows.
        #expect(columns.texts.count < values.count)
    }
}
