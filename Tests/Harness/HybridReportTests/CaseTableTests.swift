import Testing
@testable import HybridReport

/// The report's (case, repeat) positions: first-seen order, stable across growth, repeats and ids kept apart.
@Suite("Case table")
struct CaseTableTests {
    @Test("positions are dense in first-seen order and survive the table growing")
    func densePositions() {
        var table = CaseTable()
        // 3,000 pairs force several rehashes of the 1,024-bucket start.
        for repeatIndex in 0..<2 {
            for index in 0..<1_500 {
                #expect(table.index(caseID: "case-\(index)", repeatIndex: repeatIndex) == repeatIndex * 1_500 + index)
            }
        }
        #expect(table.count == 3_000)
        for index in stride(from: 0, to: 1_500, by: 7) {
            #expect(table.index(caseID: "case-\(index)", repeatIndex: 1) == 1_500 + index)
            #expect(table.index(caseID: "case-\(index)", repeatIndex: 0) == index)
        }
        #expect(table.count == 3_000)
        #expect(table.keys().prefix(2) == ["case-0#0", "case-1#0"])
        #expect(table.keys()[1_500] == "case-0#1")
    }

    @Test("an empty id and long non-ASCII ids are cases like any other")
    func unusualIDs() {
        var table = CaseTable()
        let long = String(repeating: "é", count: 40)
        #expect(table.index(caseID: "", repeatIndex: 0) == 0)
        #expect(table.index(caseID: long, repeatIndex: 0) == 1)
        #expect(table.index(caseID: "", repeatIndex: 0) == 0)
        #expect(table.index(caseID: long, repeatIndex: 0) == 1)
        #expect(table.keys() == ["#0", long + "#0"])
    }

    @Test("ids are told apart by their bytes, as the store's unique key does, not merged as equivalent Unicode")
    func idsAreBytes() {
        var table = CaseTable()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's String equality would merge them.
        #expect(table.index(caseID: composed, repeatIndex: 0) == 0)
        #expect(table.index(caseID: decomposed, repeatIndex: 0) == 1)
        #expect(table.index(caseID: composed, repeatIndex: 0) == 0)
        #expect(table.count == 2)
    }
}
