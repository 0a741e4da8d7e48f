import Foundation
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

    /// A `hybrid judge-check --out` file.
    static func judgeCheck(_ path: String) throws -> JudgeReliabilitySummary {
        guard let data = FileManager.default.contents(atPath: path),
            let summary = try? JSONDecoder().decode(JudgeReliabilitySummary.self, from: data)
        else { throw CLIError("cannot read \(path) as a `hybrid judge-check --out` file") }
        return summary
    }
}
