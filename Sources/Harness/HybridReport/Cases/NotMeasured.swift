/// Arms that were never sent: every result is an `unavailable` error stored without a call (no API key, local
/// model not installed). Reports list them once with the reason, never with figures, worst cases or rankings.
enum NotMeasured {
    /// The error kind the runner stores for such results (`GenerationError.Kind.unavailable`).
    static let errorKind = "unavailable"

    /// The reason for people: the stored message without the runner's "MODEL: unavailable: " prefix, so it reads
    /// "OPENAI_API_KEY not set".
    static func reason(fromMessage message: String, modelID: String) -> String {
        let prefix = "\(modelID): unavailable: "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }
}
