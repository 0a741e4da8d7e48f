import Foundation
import GRDB
import HybridCore
@testable import HybridStore
import Testing

/// The store writes dates and its JSON columns without `DateFormatter` and `JSONEncoder` (issue #10's profile):
/// the text must be what those wrote, or equal values would stop storing equal text.
@Suite struct StoreEncodingTests {
    @Test func datesAreStoredAsGRDBStoresThem() {
        var state: UInt64 = 12_345
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Whole milliseconds from 1970 to 2100, and fractions on both sides of the half (not on it: ties).
            let milliseconds = Int64(state >> 23) % 4_102_444_800_000
            let fraction = [0.0, 0.0002, 0.0004, 0.0007][Int(state % 4)]
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000 + fraction)
            #expect(StoreDate.text(date) == String.fromDatabaseValue(date.databaseValue), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func jsonColumnsMatchJSONEncoderWithSortedKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let outcomes = [
            ConstraintOutcome(name: "max_words", passed: false, observed: .int(91), message: "91 words, limit 80 \"quoted\"\n\t\u{1}é/"),
            ConstraintOutcome(name: "valid_json", passed: true),
            ConstraintOutcome(name: "schema", passed: true, observed: .object(["path": .string("$.a"), "n": .double(0.5)])),
        ]
        let scores = [QualityScore(scorer: "token_f1", value: 0.25), QualityScore(scorer: "judge", value: 1, detail: "good")]
        // Compared as parsed values: JSONEncoder's number and escape spellings may differ in form, not in value.
        #expect(try JSONValue(parsing: StoreJSON.encode(outcomes)) == JSONValue(parsing: String(decoding: encoder.encode(outcomes), as: UTF8.self)))
        #expect(try JSONValue(parsing: StoreJSON.encode(scores)) == JSONValue(parsing: String(decoding: encoder.encode(scores), as: UTF8.self)))
        #expect(try StoreJSON.encode(scores) == #"[{"scorer":"token_f1","value":0.25},{"detail":"good","scorer":"judge","value":1}]"#)
        #expect(throws: StoreError.self) { try StoreJSON.encode([QualityScore(scorer: "x", value: .nan)]) }
    }
}
