import Foundation
import HybridCore
import HybridReport

/// The files people's judgements come in, read one way: JSON lines (a bad line is named by file and line), and the
/// `hybrid judge-check --out` document that `report` and `recommend` take.
enum LabelFile {
    /// Each non-blank line's object with its line number; a line that is not a JSON object fails with `expected`.
    static func objects(_ path: String, expected: String) throws -> [(line: Int, object: [String: Any])] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read labels file \(path)") }
        var objects: [(line: Int, object: [String: Any])] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLIError("\(path):\(index + 1): expected \(expected)")
            }
            objects.append((index + 1, object))
        }
        return objects
    }

    /// People's pair preferences: case id → the preferred arm id or "tie", from JSON lines
    /// `{"case": ID, "preferred": ARM|"tie"}`; `arms`, when given, are the only arms a line may name.
    static func pairPreferences(_ path: String, arms: [String]? = nil) throws -> [String: String] {
        let expected = "{\"case\": ID, \"preferred\": " + (arms.map { $0.joined(separator: "|") } ?? "ARM") + "|\"tie\"}"
        var labels: [String: String] = [:]
        for (line, object) in try objects(path, expected: expected) {
            guard let id = object["case"] as? String, let preferred = object["preferred"] as? String else {
                throw CLIError("\(path):\(line): expected \(expected)")
            }
            if let arms, preferred != "tie", !arms.contains(preferred) {
                throw CLIError("\(path):\(line): preferred \"\(preferred)\" is neither \(arms.joined(separator: ", ")) nor tie")
            }
            labels[id] = preferred
        }
        return labels
    }

    /// A `hybrid judge-check --out` file.
    static func judgeCheck(_ path: String) throws -> JudgeReliabilitySummary {
        guard let data = FileManager.default.contents(atPath: path),
            let summary = try? JSONValueDecoder().decode(JudgeReliabilitySummary.self, from: JSONValue(parsing: data))
        else { throw CLIError("cannot read \(path) as a `hybrid judge-check --out` file") }
        return summary
    }
}
