import Foundation
import HybridReport
import Testing

/// `ArmCases` keeps -1 / NaN for nil internally; what callers and the JSON see must stay the optional arrays.
@Suite("Arm cases")
struct ArmCasesTests {
    @Test("optional arrays read back as given, survive JSON, and nil equals nil")
    func roundTrips() throws {
        let cases = ArmCases(
            adherence: [1, nil, 0], scores: ["rouge_l": [0.5, nil, 0.25]], totalMs: [nil, 120.5, 99])
        #expect(cases.adherence == [1, nil, 0])
        #expect(cases.scores == ["rouge_l": [0.5, nil, 0.25]])
        #expect(cases.totalMs == [nil, 120.5, 99])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(cases), as: UTF8.self)
        #expect(json == #"{"adherence":[1,null,0],"scores":{"rouge_l":[0.5,null,0.25]},"totalMs":[null,120.5,99]}"#)
        let decoded = try JSONDecoder().decode(ArmCases.self, from: Data(json.utf8))
        #expect(decoded == cases)
        #expect(Set([decoded, cases]).count == 1)
        var changed = cases
        changed.totalMs[0] = 1
        #expect(changed != cases)
    }
}
