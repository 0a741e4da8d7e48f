@testable import HybridCore
@testable import HybridValidation
import Testing

/// The estimate counts Unicode scalars from UTF-8 lead bytes; it must count exactly what `unicodeScalars` counts.
@Suite struct TokenEstimatorTests {
    @Test(arguments: ["", "a", "four", "naïve café", "日本語のテキスト", "👋🏽 family 👨‍👩‍👧", "e\u{301}", "\u{0}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}"])
    func countsScalarsAsUnicodeScalarsDoes(_ text: String) {
        #expect(TokenEstimator.scalarCount(text) == text.unicodeScalars.count)
        // A substring's storage is a slice of another string's: the count is still the slice's own.
        let tail = String(text.dropFirst())
        #expect(TokenEstimator.scalarCount(tail) == tail.unicodeScalars.count)
        #expect(TokenEstimator.estimate(text) == (text.isEmpty ? 0 : max(1, (text.unicodeScalars.count + 3) / 4)))
    }
}
