import Foundation
import HybridCore

/// A dataset: its cases, where it came from, a content hash, and the lines skipped as invalid.
///
/// JSON Lines: one object per line, `{"id": "...", "input": {...}, "reference": {...}}`; blank lines and lines
/// starting with `//` are ignored. A case may also carry `messages`, `tools` and `expected_tool_calls`
/// (``ConversationCase``); with `messages`, `input` is optional. CSV (RFC 4180, header row): column `id`, columns `expected_text`,
/// `expected_label`, `expected_regex` and `expected.<field>` become the reference, every other column is an input
/// variable. Input values must be strings, numbers or booleans (numbers are rendered as written).
///
/// ``load(path:skipInvalid:)`` decodes every case up front; ``open(path:)`` streams a JSONL file: it only scans
/// for line boundaries (the bytes are hashed on another thread, and not kept), and each case is read and decoded
/// when it is used (``evalCase(at:)``), so a run over 200,000 lines sends its first request as soon as one over 20
/// does, and holds 16 bytes per line instead of the file.
public struct Dataset: Sendable {
    /// Path of the file the cases were read from.
    public var path: String
    /// SHA-256 of the file's bytes, stored with each run so a changed dataset is visible. On a streamed dataset
    /// the getter waits for the hash its thread computes (``contentHashValue()`` waits without blocking a thread).
    public var contentHash: String {
        get {
            if let knownHash { return knownHash }
            guard case .lines(let lines, _) = storage else { return "" }
            return (try? lines.hash.value()) ?? ""
        }
        set { knownHash = newValue }
    }
    private var knownHash: String?
    /// Lines skipped with `skipInvalid`, with the reason for each.
    public var skipped: [DatasetError]
    private var storage: Storage

    private enum Storage: Sendable {
        case loaded([EvalCase])
        /// The first `count` case lines of a scanned file, not yet decoded.
        case lines(DatasetLines, count: Int)
    }

    /// A dataset built in code (tests, programmatic runs); `contentHash` should change when the cases do.
    public init(path: String, cases: [EvalCase], contentHash: String, skipped: [DatasetError] = []) {
        self.path = path
        self.storage = .loaded(cases)
        self.knownHash = contentHash
        self.skipped = skipped
    }

    /// ``contentHash``, waiting without blocking a thread while a streamed dataset is still being hashed; throws
    /// when the file could not be read whole.
    public func contentHashValue() async throws(DatasetError) -> String {
        if let knownHash { return knownHash }
        guard case .lines(let lines, _) = storage else { return "" }
        return try await lines.hash.value()
    }

    /// The cases in file order. On a streamed dataset this decodes every line (leaving out bad ones): prefer
    /// ``count`` and ``evalCase(at:)``.
    public var cases: [EvalCase] {
        get {
            switch storage {
            case .loaded(let cases): cases
            case .lines(let lines, let count): (0..<count).compactMap { try? lines.evalCase(at: $0, path: path) }
            }
        }
        set { storage = .loaded(newValue) }
    }

    /// How many cases there are (on a streamed dataset: case lines, every one of which must be valid).
    public var count: Int {
        switch storage {
        case .loaded(let cases): cases.count
        case .lines(_, let count): count
        }
    }

    /// True when cases are decoded as they are used; ``validate(limit:check:)`` then still has to read the rest.
    public var isStreamed: Bool {
        if case .lines = storage { return true }
        return false
    }

    /// The case at `index` (`0..<count`), decoded now on a streamed dataset; a bad line throws its error.
    public func evalCase(at index: Int) throws(DatasetError) -> EvalCase {
        switch storage {
        case .loaded(let cases): return cases[index]
        case .lines(let lines, _): return try lines.evalCase(at: index, path: path)
        }
    }

    /// Keeps the first `limit` cases (`--limit`); a streamed dataset is still checked whole.
    public mutating func limit(to limit: Int) {
        switch storage {
        case .loaded(let cases): storage = .loaded(Array(cases.prefix(max(0, limit))))
        case .lines(let lines, let count): storage = .lines(lines, count: min(count, max(0, limit)))
        }
    }

    /// Checks a streamed dataset whole, as ``load(path:skipInvalid:)`` would have before starting: every bad line
    /// and duplicate id (thrown as ``EvalError/dataset(_:)``); `check` sees each case kept by ``limit(to:)``.
    /// Nothing to do for a loaded dataset.
    public func validate(check: (EvalCase) throws(EvalError) -> Void) async throws(EvalError) {
        guard case .lines(let lines, let count) = storage else { return }
        try await lines.validate(path: path, limit: count, check: check)
    }

    /// Opens `path` for streaming: a JSONL file is read, hashed and scanned for line boundaries only, and its cases
    /// are decoded as a run dispatches them (a bad line found then stops the run before anything is stored: see
    /// ``EvalRunner``). CSV, whose records may span lines, is loaded whole as by ``load(path:skipInvalid:)``.
    /// `--skip-invalid` needs the whole file first (the plan counts only the valid lines), so it uses `load`.
    /// Anything but a regular file (a pipe, `/dev/stdin`) is loaded whole too: it cannot be read twice.
    public static func open(path: String) throws(DatasetError) -> Dataset {
        if path.lowercased().hasSuffix(".csv") { return try load(path: path) }
        guard let lines = DatasetLines(scanning: path) else { return try load(path: path) }
        if lines.spans.isEmpty { throw .empty(path: path) }
        var dataset = Dataset(path: path, cases: [], contentHash: "")
        dataset.knownHash = nil
        dataset.storage = .lines(lines, count: lines.spans.count)
        return dataset
    }

    private static func read(_ path: String) throws(DatasetError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, detail: (error as NSError).localizedDescription)
        }
    }

    /// Loads `path` (`.jsonl`/`.ndjson` or `.csv`).
    ///
    /// A malformed line fails the load and names every bad line, unless `skipInvalid` is true, in which case the
    /// bad lines are recorded in `skipped` and the rest load. Duplicate ids are an error either way.
    public static func load(path: String, skipInvalid: Bool = false) throws(DatasetError) -> Dataset {
        let data = try read(path)
        let parsed: (cases: [EvalCase], errors: [DatasetError])
        if path.lowercased().hasSuffix(".csv") {
            // A CSV record may span lines, so the file is decoded whole; a bad byte is reported with its line.
            guard let text = String(data: data, encoding: .utf8) else {
                throw .invalidLine(path: path, line: firstInvalidUTF8Line(data), detail: "not valid UTF-8")
            }
            parsed = parseCSV(text, path: path)
        } else {
            parsed = parseJSONL(data, path: path)
        }
        var errors = parsed.errors
        var seen: [String: Int] = [:]
        var cases: [EvalCase] = []
        for item in parsed.cases {
            if let first = seen[item.id] {
                errors.append(.invalidLine(path: path, line: item.line, detail: "duplicate id \"\(item.id)\" (first on line \(first))"))
                continue
            }
            seen[item.id] = item.line
            cases.append(item)
        }
        errors.sort { lineOf($0) < lineOf($1) }
        if !errors.isEmpty && !skipInvalid { throw .invalidLines(errors) }
        if cases.isEmpty { throw .empty(path: path) }
        return Dataset(path: path, cases: cases, contentHash: ContentHash.hex(of: data), skipped: errors)
    }

    private static func lineOf(_ error: DatasetError) -> Int {
        if case .invalidLine(_, let line, _) = error { return line }
        return 0
    }

    /// One JSON object per line, parsed with the core's JSON parser straight from the line's bytes: no
    /// `JSONDecoder` and no `String` copy of the whole file, so 20,000 cases load in a few milliseconds.
    static func parseJSONL(_ data: Data, path: String) -> (cases: [EvalCase], errors: [DatasetError]) {
        var cases: [EvalCase] = []
        var errors: [DatasetError] = []
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var lineNumber = 0
            var start = 0
            while start <= bytes.count {
                lineNumber += 1
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                defer { start = end + 1 }
                // Trimmed on bytes: `trimmingCharacters` bridges through NSString, a tenth of start-up.
                var first = start
                var last = end
                while first < last, DatasetLines.isJSONWhitespace(bytes[first]) { first += 1 }
                while last > first, DatasetLines.isJSONWhitespace(bytes[last - 1]) { last -= 1 }
                guard let line = String(validating: bytes[first..<last], as: UTF8.self) else {
                    errors.append(.invalidLine(path: path, line: lineNumber, detail: "not valid UTF-8"))
                    continue
                }
                switch parseLine(line, number: lineNumber) {
                case nil: continue
                case .success(let item): cases.append(item)
                case .failure(let problem): errors.append(.invalidLine(path: path, line: lineNumber, detail: problem.message))
                }
            }
        }
        return (cases, errors)
    }

    /// The JSONL parser over text (tests and callers holding a string).
    static func parseJSONL(_ text: String, path: String) -> (cases: [EvalCase], errors: [DatasetError]) {
        parseJSONL(Data(text.utf8), path: path)
    }

    /// One trimmed line's case, a problem, or nil for a blank or `//` comment line.
    static func parseLine(_ line: String, number: Int) -> Result<EvalCase, Problem>? {
        if line.isEmpty || line.hasPrefix("//") { return nil }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            return .failure(Problem(message: "not valid JSON: \(error.description)"))
        }
        return makeCase(value, line: number)
    }

    /// The 1-based line holding the first byte that is not valid UTF-8.
    static func firstInvalidUTF8Line(_ data: Data) -> Int {
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if String(validating: line, as: UTF8.self) == nil { return lineNumber }
        }
        return lineNumber
    }

    struct Problem: Error { var message: String }

    /// The keys a case line may have.
    static let allowedCaseKeys = Set(["id", "input", "reference", "tags", "notes"]).union(ConversationCase.keys)

    static func makeCase(_ value: JSONValue, line: Int) -> Result<EvalCase, Problem> {
        guard let object = value.objectValue else {
            return .failure(Problem(message: "expected a JSON object, got \(value.typeName)"))
        }
        let id: String
        switch object["id"] {
        case .string(let s) where !s.isEmpty: id = s
        case .int(let i): id = String(i)
        case nil: return .failure(Problem(message: "missing \"id\""))
        case let other?: return .failure(Problem(message: "\"id\" must be a non-empty string, got \(other.typeName)"))
        }
        let conversation: ConversationCase?
        do {
            conversation = try ConversationCase.parse(object)
        } catch {
            return .failure(Problem(message: error.description))
        }
        let hasMessages = !(conversation?.messages.isEmpty ?? true)
        let inputValue: JSONValue
        if let given = object["input"] {
            inputValue = given
        } else if hasMessages {
            inputValue = .object([:])
        } else {
            return .failure(Problem(message: "missing \"input\" object (or \"messages\")"))
        }
        guard let inputObject = inputValue.objectValue else {
            return .failure(Problem(message: "\"input\" must be an object of template variables, got \(inputValue.typeName)"))
        }
        var input: [String: String] = [:]
        for (key, member) in inputObject {
            switch member {
            case .string(let s): input[key] = s
            case .int(let i): input[key] = String(i)
            case .double(let d): input[key] = String(d)
            case .bool(let b): input[key] = String(b)
            default:
                return .failure(Problem(message: "input.\(key) must be a string, number or boolean, got \(member.typeName)"))
            }
        }
        var reference: Reference? = nil
        if let raw = object["reference"], raw != .null {
            guard raw.objectValue != nil else {
                return .failure(Problem(message: "\"reference\" must be an object, got \(raw.typeName)"))
            }
            switch Self.reference(raw) {
            case .success(let read): reference = read
            case .failure(let problem): return .failure(Problem(message: "reference: \(problem.message)"))
            }
        }
        // Checked key by key against a set built once: two sets per line (every line is decoded twice, once to
        // validate the file and once to run it) were a visible share of a fast eval's CPU.
        if object.keys.contains(where: { !Self.allowedCaseKeys.contains($0) }) {
            let key = object.keys.filter { !Self.allowedCaseKeys.contains($0) }.sorted()[0]
            return .failure(Problem(message: "unknown key \"\(key)\" (allowed: \(allowedCaseKeys.sorted().joined(separator: ", ")))"))
        }
        return .success(EvalCase(id: id, input: input, reference: reference, line: line, conversation: conversation))
    }

    /// A case's `reference` read straight from its members (decoding it through a `Decoder` was a fifth of a large
    /// eval's start-up), naming the member that is wrong; unknown keys are refused so a misspelt reference does not
    /// silently score nothing.
    static func reference(_ raw: JSONValue) -> Result<Reference, Problem> {
        guard case .object(let members) = raw else { return .failure(Problem(message: "must be an object, got \(raw.typeName)")) }
        let supported = ["expectedText", "expectedFields", "labels", "regex"]
        if let unknown = members.keys.sorted().first(where: { !supported.contains($0) }) {
            return .failure(Problem(message: "unknown reference key '\(unknown)' (supported: \(supported.joined(separator: ", ")))"))
        }
        var reference = Reference()
        for (key, value) in members where value != .null {
            switch (key, value) {
            case ("expectedText", .string(let text)): reference.expectedText = text
            case ("regex", .string(let pattern)): reference.regex = pattern
            case ("expectedFields", .object(let fields)): reference.expectedFields = fields
            case ("labels", .array(let labels)):
                for (index, label) in labels.enumerated() {
                    guard case .string(let text) = label else {
                        return .failure(Problem(message: "labels[\(index)] must be a string, got \(label.typeName)"))
                    }
                    reference.labels.append(text)
                }
            case ("expectedFields", _): return .failure(Problem(message: "expectedFields must be an object, got \(value.typeName)"))
            case ("labels", _): return .failure(Problem(message: "labels must be an array of strings, got \(value.typeName)"))
            default: return .failure(Problem(message: "\(key) must be a string, got \(value.typeName)"))
            }
        }
        do {
            try reference.validate()
        } catch {
            return .failure(Problem(message: error.description))
        }
        return .success(reference)
    }

    static func parseCSV(_ text: String, path: String) -> (cases: [EvalCase], errors: [DatasetError]) {
        let records: [CSVRecord]
        do {
            records = try CSVRecord.parse(text)
        } catch {
            return ([], [.invalidLine(path: path, line: error.line, detail: error.message)])
        }
        guard let header = records.first else { return ([], []) }
        guard let idColumn = header.fields.firstIndex(of: "id") else {
            return ([], [.invalidLine(path: path, line: header.line, detail: "the header has no \"id\" column")])
        }
        var cases: [EvalCase] = []
        var errors: [DatasetError] = []
        for record in records.dropFirst() {
            if record.fields.count == 1 && record.fields[0].isEmpty { continue }
            guard record.fields.count == header.fields.count else {
                errors.append(.invalidLine(path: path, line: record.line,
                    detail: "expected \(header.fields.count) fields like the header, got \(record.fields.count)"))
                continue
            }
            var input: [String: String] = [:]
            var reference = Reference()
            var fields: [String: JSONValue] = [:]
            for (column, value) in zip(header.fields, record.fields) {
                switch column {
                case "id": continue
                case "expected_text": if !value.isEmpty { reference.expectedText = value }
                case "expected_label": if !value.isEmpty { reference.labels = [value] }
                case "expected_regex": if !value.isEmpty { reference.regex = value }
                case let c where c.hasPrefix("expected."):
                    if !value.isEmpty { fields[String(c.dropFirst("expected.".count))] = .string(value) }
                default: input[column] = value
                }
            }
            if !fields.isEmpty { reference.expectedFields = fields }
            do {
                try reference.validate()
            } catch {
                errors.append(.invalidLine(path: path, line: record.line, detail: error.description))
                continue
            }
            let id = record.fields[idColumn]
            guard !id.isEmpty else {
                errors.append(.invalidLine(path: path, line: record.line, detail: "empty \"id\""))
                continue
            }
            cases.append(EvalCase(id: id, input: input, reference: reference == Reference() ? nil : reference, line: record.line))
        }
        return (cases, errors)
    }
}
