public import HybridCore

/// What a dataset case expects of an output; every part is optional and scorers use the parts they understand.
///
/// JSON keys: `expectedText`, `expectedFields` (an object), `labels` (acceptable class labels), `regex`.
/// Decoding rejects unknown keys so a misspelt reference does not silently score nothing.
public struct Reference: Sendable, Hashable, Codable {
    /// The ideal answer text, for exact match, contains, token F1 and ROUGE-L.
    public var expectedText: String?
    /// Expected top-level members of a structured (JSON) output, for ``FieldMatchScorer``.
    public var expectedFields: [String: JSONValue]?
    /// Acceptable labels for a classification output; matching any one scores 1.
    public var labels: [String]
    /// A regular expression (Swift `Regex` syntax, unanchored, case-sensitive unless it says `(?i)`).
    public var regex: String?

    /// A reference; call ``validate()`` when it comes from a dataset file.
    public init(
        expectedText: String? = nil, expectedFields: [String: JSONValue]? = nil, labels: [String] = [],
        regex: String? = nil
    ) {
        self.expectedText = expectedText
        self.expectedFields = expectedFields
        self.labels = labels
        self.regex = regex
    }

    /// Throws when the regex does not compile, so a dataset is rejected at load time rather than scoring nil.
    public func validate() throws(ReferenceError) {
        guard let regex else { return }
        do {
            _ = try Regex(regex)
        } catch {
            throw .invalidRegex(pattern: regex, reason: "\(error)")
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case expectedText, expectedFields, labels, regex
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.container(keyedBy: AnyKey.self)
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        if let unknown = raw.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [AnyKey(stringValue: unknown)],
                    debugDescription: "unknown reference key '\(unknown)' (supported: "
                        + CodingKeys.allCases.map(\.rawValue).joined(separator: ", ") + ")"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            expectedText: try c.decodeIfPresent(String.self, forKey: .expectedText),
            expectedFields: try c.decodeIfPresent([String: JSONValue].self, forKey: .expectedFields),
            labels: try c.decodeIfPresent([String].self, forKey: .labels) ?? [],
            regex: try c.decodeIfPresent(String.self, forKey: .regex))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(expectedText, forKey: .expectedText)
        try c.encodeIfPresent(expectedFields, forKey: .expectedFields)
        if !labels.isEmpty { try c.encode(labels, forKey: .labels) }
        try c.encodeIfPresent(regex, forKey: .regex)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Why a ``Reference`` cannot be used.
public enum ReferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidRegex(pattern: String, reason: String)

    public var description: String {
        switch self {
        case .invalidRegex(let pattern, let reason): "regex: invalid regular expression '\(pattern)': \(reason)"
        }
    }
}
