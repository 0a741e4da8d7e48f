import Foundation
import HybridCore

/// Turns the text of a structured-output response into JSON.
enum StructuredOutputParser {
    /// Parses `text` as JSON with the package's strict parser (as the output checks do, so a duplicate key fails
    /// both), tolerating a Markdown code fence around it (common with small local models).
    ///
    /// Text that is not JSON yields nil rather than an error: the model did answer, and whether the answer holds
    /// its schema is an adherence result the caller scores (the runner) or acts on (the router), not a transport
    /// failure. `finishReason == .length` usually explains a truncated object.
    static func parse(_ text: String) -> JSONValue? {
        var candidate = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if candidate.hasPrefix("```") {
            candidate = String(candidate.drop { $0 != "\n" }.dropFirst())
            if candidate.hasSuffix("```") { candidate = String(candidate.dropLast(3)) }
        }
        return try? JSONValue(parsing: candidate)
    }

    /// Compact JSON text of `value` with sorted keys (for tool inputs that arrive as JSON objects).
    static func text(of value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
