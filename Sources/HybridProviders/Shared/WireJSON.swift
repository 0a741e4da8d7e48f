import Foundation

/// One JSON encoder shared by every request body that is written with `Codable` (Anthropic, Gemini, Ollama): it
/// is stateless once configured and safe to use from many tasks at once, and making one per request showed in the
/// eval's profile.
enum WireJSON {
    /// Sorted keys, so identical requests produce identical bytes.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
