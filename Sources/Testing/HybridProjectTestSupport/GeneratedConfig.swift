public import Foundation
import HybridCore

/// A large config document for the start-up benchmark and the decoding tests: `base` (the bundled defaults) plus
/// generated features shaped like real ones (two variants, constraints, options, a schema on every fourth).
public enum GeneratedConfig {
    /// `base` with `features` generated features added and `version` 2, serialized with sorted keys as a remote
    /// payload would be.
    public static func document(base: Data, features: Int) throws -> Data {
        guard var root = try JSONValue(parsing: String(decoding: base, as: UTF8.self)).objectValue else {
            throw CocoaError(.coderReadCorrupt)  // the base is the bundled config, an object
        }
        var all = root["features"]?.objectValue ?? [:]
        for i in 0..<features {
            all["generated_\(i)"] = .object(feature(i))
        }
        root["features"] = .object(all)
        root["version"] = 2
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(root)
    }

    private static func feature(_ i: Int) -> [String: JSONValue] {
        var feature: [String: JSONValue] = [
            "description": .string("Generated feature \(i)"),
            "inputs": ["input", "language"],
            "instructions": .string("You are a careful assistant for task \(i). Answer in {{language}}."),
            "variants": [
                "a": ["template": .string("Task \(i): summarize the text below in {{language}}.\n\nText:\n{{input}}\n\nAnswer:")],
                "b": ["template": .string("Task \(i), variant B. Keep it short, in {{language}}.\n\n{{input}}")],
            ],
            "defaultVariant": "a",
            "constraints": ["maxSentences": 3, "maxWords": 80, "mustNotContain": ["As an AI"]],
            "options": ["temperature": 0.2, "maxOutputTokens": 160],
            "priority": ["local-smollm2", "gemini-flash", "openai-gpt-4o-mini"],
            "deadlineMs": 15000,
            "privacy": "open",
            "monthlyBudgetUSD": 3,
        ]
        if i % 4 == 0 {
            feature["outputSchema"] = [
                "type": "object",
                "properties": ["label": ["type": "string", "enum": ["a", "b", "c"]], "score": ["type": "number"]],
                "required": ["label"],
                "additionalProperties": false,
            ]
        }
        return feature
    }
}
