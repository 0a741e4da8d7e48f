public import Foundation
public import HybridCore
import HybridTestSupport

/// A second opinion on JSON Schema verdicts: Python's `jsonschema` (Draft 2020-12), which `make setup` installs
/// into the project's `.venv`, run once per batch so hundreds of cases cost one process start.
public enum JSONSchemaOracle {
    /// What `jsonschema` said about one (schema, instance) pair.
    public enum Verdict: Sendable, Hashable {
        case valid
        case invalid
        /// The schema itself was rejected by the draft 2020-12 metaschema.
        case schemaError(String)
    }

    /// Why the oracle could not run.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads every case from stdin before writing anything, so neither pipe can fill while the other waits. Each
    /// distinct schema is checked against the metaschema once, by one reused validator (the costly step).
    private static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import best_match
        meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
        problems = {}
        out = []
        for line in sys.stdin.read().splitlines():
            case = json.loads(line)
            key = json.dumps(case["schema"], sort_keys=True)
            if key not in problems:
                error = best_match(meta.iter_errors(case["schema"]))
                problems[key] = None if error is None else error.message.replace("\\n", " ")
            if problems[key] is not None:
                out.append("schema-error " + problems[key])
            else:
                valid = Draft202012Validator(case["schema"]).is_valid(case["instance"])
                out.append("valid" if valid else "invalid")
        sys.stdout.write("\\n".join(out) + "\\n")
        """

    /// The project's `.venv/bin/python`, or a `python3` on PATH that can import `jsonschema`.
    public static func python() throws -> URL {
        let root = ProjectRoot.url
        let venv = root.appendingPathComponent(".venv/bin/python")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Unavailable(description: "no Python found: run `make setup` (installs jsonschema into .venv)")
    }

    /// `jsonschema`'s verdict for each pair, in order.
    public static func verdicts(_ cases: [(schema: JSONValue, instance: JSONValue)]) async throws -> [Verdict] {
        let encoder = JSONEncoder()
        var input = Data()
        for c in cases {
            input.append(try encoder.encode(JSONValue.object(["schema": c.schema, "instance": c.instance])))
            input.append(UInt8(ascii: "\n"))
        }
        let outcome = try await ChildProcess.run(try python(), ["-c", script], input: input)
        guard outcome.status == 0 else {
            throw Unavailable(description: "python exited \(outcome.status): \(outcome.stderr) (run `make setup` to install jsonschema into .venv)")
        }
        let output = outcome.stdout
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.count == cases.count else {
            throw Unavailable(description: "jsonschema answered \(lines.count) of \(cases.count) cases: \(output.prefix(2000))")
        }
        return lines.map { line in
            switch line {
            case "valid": .valid
            case "invalid": .invalid
            default: .schemaError(String(line.dropFirst("schema-error ".count)))
            }
        }
    }
}
