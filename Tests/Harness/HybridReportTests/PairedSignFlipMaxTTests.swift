import Foundation
import HybridReport
import Testing

/// The max-T sign-flip test over a family of delays that share their cases.
@Suite struct PairedSignFlipMaxTTests {
    /// The per-case latency a hedge after each of `delays` saves on 80 cases: the device answers in 60 ms except
    /// cases 9, 19, …, 79 (2.4–2.58 s), the cloud in 250 ms; a hedge saves only on the slow cases.
    static func savings(delays: [Double], slow: (Int) -> Bool = { $0 % 10 == 9 }) -> [[Double]] {
        delays.map { delay in
            (0..<80).map { i in
                let device = slow(i) ? 2_400 + Double(i % 7) * 30 : 60
                return max(0, device - min(device, delay + 250))
            }
        }
    }

    /// 29 delays from 80 ms to about 1.9 s, each about 10 % after the last, as `recommend --hedge-after auto` tries.
    static let grid: [Double] = (0..<29).map { (80 * pow(1.12, Double($0))).rounded() }

    @Test("8 slow cases of 80 show a hedge across 29 delays, where Bonferroni could not (2⁻⁸ × 29 = 0.113)")
    func theBimodalDevicePasses() throws {
        let test = try #require(PairedSignFlipMaxT(differences: Self.savings(delays: Self.grid)))
        #expect(test.informativeCases == 8)
        #expect(test.adjustedPValues.allSatisfy { $0 < 0.05 }, "\(test.adjustedPValues)")
        #expect(test.adjustedPValues.allSatisfy { $0 >= 1.0 / 256 - 1e-3 }, "no test of 8 signs goes much below 2⁻⁸")
        #expect(0.0039 * Double(Self.grid.count) > 0.05, "Bonferroni would have refused it")
    }

    @Test("a saving on 1 case of 80 is not shown")
    func oneCaseIsNotShown() throws {
        let test = try #require(PairedSignFlipMaxT(differences: Self.savings(delays: Self.grid) { $0 == 42 }))
        #expect(test.informativeCases == 1)
        #expect(test.adjustedPValues.allSatisfy { $0 > 0.4 }, "\(test.adjustedPValues)")
    }

    @Test("the p is never below 1/(1 + B), even when every case saves; no saving at all is p 1")
    func thePHasAFloor() throws {
        let configuration = BootstrapConfiguration(resamples: 200)
        let all = try #require(PairedSignFlipMaxT(differences: Self.savings(delays: [100, 300]) { _ in true }, configuration: configuration))
        #expect(all.adjustedPValues == [1.0 / 201, 1.0 / 201])
        let none = try #require(PairedSignFlipMaxT(differences: [[0, 0, 0], [0, 0, 0]]))
        #expect(none.adjustedPValues == [1, 1] && none.statistics == [0, 0])
        #expect(PairedSignFlipMaxT(differences: [[1, 2], [1]]) == nil)
        #expect(PairedSignFlipMaxT(differences: []) == nil)
    }

    @Test("a member whose savings are a subset of another's is adjusted upwards: the family's maximum binds")
    func theMaximumBinds() throws {
        // Delay 300 saves on the 8 slow cases, delay 2,300 on none of them but one: its own T is 1.
        let test = try #require(PairedSignFlipMaxT(differences: Self.savings(delays: [300, 2_300])))
        #expect(test.statistics[0] > test.statistics[1])
        #expect(test.adjustedPValues[0] <= test.adjustedPValues[1])
    }
}
