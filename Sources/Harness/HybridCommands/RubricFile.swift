import Foundation
import HybridRunner

/// A rubric file: plain text (one overall 1–5 score), or a JSON object
/// `{"rubric": TEXT, "dimensions": [{"name", "description", "scale"}]}` whose dimensions are scored one by one with
/// a rationale each. A mistake is named by file and JSON path.
enum RubricFile {
    static func read(_ text: String, path: String) throws -> (rubric: String, dimensions: [RubricDimension]) {
        guard text.drop(while: \.isWhitespace).first == "{" else { return (text, []) }
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw CLIError("\(path): expected a JSON object")
            }
            object = parsed
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(path): not valid JSON (\(error.localizedDescription))")
        }
        for key in object.keys where !["rubric", "dimensions"].contains(key) {
            throw CLIError("\(path): $.\(key): unknown key (expected rubric, dimensions)")
        }
        guard let list = object["dimensions"] as? [Any], !list.isEmpty else {
            throw CLIError("\(path): $.dimensions: expected a non-empty array of {\"name\", \"description\", \"scale\"}")
        }
        var dimensions: [RubricDimension] = []
        for (index, item) in list.enumerated() {
            let at = "\(path): $.dimensions[\(index)]"
            guard let entry = item as? [String: Any] else { throw CLIError("\(at): expected an object") }
            guard let name = entry["name"] as? String, name.range(of: #"^[A-Za-z][A-Za-z0-9_-]*$"#, options: .regularExpression) != nil else {
                throw CLIError("\(at).name: expected a name of letters, digits, _ or - starting with a letter")
            }
            guard !dimensions.contains(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw CLIError("\(at).name: \(name) is named twice")
            }
            guard let description = entry["description"] as? String, !description.isEmpty else {
                throw CLIError("\(at).description: expected what the dimension rewards")
            }
            let scale = entry["scale"] ?? 5
            guard let top = scale as? Int, (2...10).contains(top) else { throw CLIError("\(at).scale: expected an integer from 2 to 10") }
            dimensions.append(RubricDimension(name: name, description: description, scale: top))
        }
        let rubric = (object["rubric"] as? String) ?? "Score the answer on each dimension below."
        return (rubric, dimensions)
    }
}
