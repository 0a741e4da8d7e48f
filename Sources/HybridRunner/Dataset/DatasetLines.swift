import Foundation
import HybridCore

/// A JSONL file's bytes and where each case line is, found by one byte scan: what lets a run send its first request
/// before any case is decoded. Each case is decoded when it is dispatched (``DatasetLines/evalCase(at:path:)``); the
/// whole file is checked by ``DatasetLines/validate(path:limit:)`` while the run is already sending.
final class DatasetLines: Sendable {
    /// One non-blank, non-comment line, trimmed: a case, or an error once decoded.
    struct Span: Sendable {
        var start: Int
        var end: Int
        /// 1-based line number in the file.
        var line: Int
    }

    let bytes: Data
    let spans: [Span]

    /// Scans `bytes` for the lines that hold cases (the same lines ``Dataset/parseJSONL(_:path:)`` parses).
    init(bytes: Data) {
        self.bytes = bytes
        var spans: [Span] = []
        spans.reserveCapacity(bytes.count / 64)
        bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            var lineNumber = 0
            while start <= buffer.count {
                lineNumber += 1
                // memchr, not a Swift loop: this scan is all a run waits for before its first request.
                let end = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
                    .map { $0 - UnsafeMutableRawPointer(mutating: base) } ?? buffer.count
                defer { start = end + 1 }
                var first = start
                var last = end
                while first < last, Self.isJSONWhitespace(buffer[first]) { first += 1 }
                while last > first, Self.isJSONWhitespace(buffer[last - 1]) { last -= 1 }
                if first == last { continue }
                if last - first >= 2, buffer[first] == UInt8(ascii: "/"), buffer[first + 1] == UInt8(ascii: "/") { continue }
                spans.append(Span(start: first, end: last, line: lineNumber))
            }
        }
        self.spans = spans
    }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The case on the `index`-th case line, decoded now.
    func evalCase(at index: Int, path: String) throws(DatasetError) -> EvalCase {
        let span = spans[index]
        switch decode(span) {
        case .success(let item): return item
        case .failure(let problem): throw .invalidLine(path: path, line: span.line, detail: problem.message)
        }
    }

    private func decode(_ span: Span) -> Result<EvalCase, Dataset.Problem> {
        let line: String? = bytes.withUnsafeBytes { buffer in
            String(validating: buffer[span.start..<span.end], as: UTF8.self)
        }
        guard let line else { return .failure(Dataset.Problem(message: "not valid UTF-8")) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            return .failure(Dataset.Problem(message: "not valid JSON: \(error.description)"))
        }
        return Dataset.makeCase(value, line: span.line)
    }

    /// Decodes every case line as ``Dataset/load(path:skipInvalid:)`` does and throws what it would have thrown
    /// (every bad line, duplicate ids); `check` sees each case of the first `limit` (the plan's own checks).
    /// Yields now and then, so a run already sending keeps its pace while a large file is checked.
    func validate(path: String, limit: Int, check: (EvalCase) throws(EvalError) -> Void) async throws(EvalError) {
        var errors: [DatasetError] = []
        var seen: [String: Int] = [:]
        seen.reserveCapacity(spans.count)
        for (index, span) in spans.enumerated() {
            if index % 2_000 == 1_999 { await Task.yield() }
            switch decode(span) {
            case .failure(let problem):
                errors.append(.invalidLine(path: path, line: span.line, detail: problem.message))
            case .success(let item):
                if let first = seen[item.id] {
                    errors.append(.invalidLine(path: path, line: item.line, detail: "duplicate id \"\(item.id)\" (first on line \(first))"))
                } else {
                    seen[item.id] = item.line
                    if index < limit { try check(item) }
                }
            }
        }
        if !errors.isEmpty { throw .dataset(.invalidLines(errors)) }
    }
}
