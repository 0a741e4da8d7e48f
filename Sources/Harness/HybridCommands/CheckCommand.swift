import ArgumentParser
import Foundation
import HybridCore

/// `hybrid check`: validate one output against a schema and/or soft constraints, for users and scripts.
///
/// Exit codes keep "the output failed" apart from "the check itself could not run": a script gating on
/// `hybrid check` must not mistake a typo in its schema for a model failing.
struct CheckCommand: AsyncParsableCommand {
    /// A schema or constraints file that cannot be used: unreadable, not JSON, or not a valid definition.
    static let definitionErrorExitCode: Int32 = 2

    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check one output (stdin) against a JSON schema and/or constraints.",
        discussion: """
            Exit codes: 0 every check passed; 1 a check failed; 2 the schema or constraints file is unusable \
            (unreadable, not JSON, an unsupported keyword or a malformed schema; the message names the file and \
            the JSON path in it); 64 usage error.

            Schemas: JSON Schema 2020-12, including what OpenAI Structured Outputs, Gemini response schemas and \
            Foundation Models' GenerationSchema use. Supported keywords: \
            \(JSONSchema.supportedKeywords.joined(separator: ", ")), and any x-… extension (ignored). \
            Asserted formats: \(JSONSchema.assertedFormats.joined(separator: ", ")); other formats are annotations.
            Constraint keys: \(OutputConstraints.supportedKeys.joined(separator: ", ")).
            """)

    @Option(help: "JSON Schema file (2020-12; OpenAI, Gemini and Foundation Models schemas as written).")
    var schema: String?

    @Option(help: "Constraints JSON file, e.g. {\"maxSentences\": 3, \"mustNotContain\": [\"fish\"]}.")
    var constraints: String?

    func validate() throws {
        if schema == nil && constraints == nil { throw ValidationError("give --schema, --constraints or both") }
    }

    func run() async throws {
        try await CLIOutput.run {
            let output = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            var results: [ConstraintResult] = []
            do {
                if let schema { results += StructuredOutputCheck(schema: try Self.loadSchema(schema)).check(output).checks }
                if let constraints { results += try Self.loadConstraints(constraints).evaluate(output) }
            } catch {
                CLIOutput.error("error: \(error)")
                throw ExitCode(Self.definitionErrorExitCode)
            }
            for result in results { print(result.description) }
            let failed = results.filter { !$0.passed }.count
            print("\(results.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode.failure }
        }
    }

    static func loadSchema(_ path: String) throws -> JSONSchema {
        let value = try readJSON(path)
        do {
            return try JSONSchema(value)
        } catch {
            throw CLIError("\(path): \(error)")
        }
    }

    /// An output constraints file (`check --constraints`, `rescore --constraints`), named in every error.
    static func loadConstraints(_ path: String) throws -> OutputConstraints {
        let value = try readJSON(path)
        let constraints: OutputConstraints
        do {
            constraints = try JSONValueDecoder().decode(OutputConstraints.self, from: value)
        } catch {
            throw CLIError("\(path): not an output constraints object (keys: \(OutputConstraints.supportedKeys.joined(separator: ", "))): \(error)")
        }
        do {
            try constraints.validateDefinition()
        } catch {
            throw CLIError("\(path): \(error)")
        }
        return constraints
    }

    static func read(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
        return data
    }

    /// Parsed strictly, so a syntax error is reported with its line and column and bytes that are not UTF-8 are
    /// refused (as `JSONDecoder` refused them in constraints files before they came this way).
    static func readJSON(_ path: String) throws -> JSONValue {
        let data = try read(path)
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw CLIError("\(path): not valid JSON (\(error))")
        }
    }
}
