import Foundation

/// One JSON encoder and decoder shared by every request: both are stateless once configured and safe to use from
/// many tasks at once, and making a new one per request or per stream event showed in the eval's profile.
enum WireJSON {
    /// Sorted keys, so identical requests produce identical bytes.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Default options.
    static let decoder = JSONDecoder()
}
