import Foundation
import HybridCore

/// Where each case line of a JSONL file is, found by one byte scan: what lets a run send its first request before
/// any case is decoded. The file's bytes are not kept: each case is read again (`pread`) and decoded when it is
/// dispatched (``DatasetLines/evalCase(at:path:)``), the whole file is checked by
/// ``DatasetLines/validate(path:limit:check:)`` while the run is already sending, and its hash is computed on a
/// thread of its own (``BackgroundHash``). So memory holds 16 bytes per line, not the file.
final class DatasetLines: Sendable {
    /// One non-blank, non-comment line, trimmed: a case, or an error once decoded.
    struct Span: Sendable {
        var start: Int
        var length: UInt32
        /// 1-based line number in the file.
        var line: UInt32
    }

    let spans: [Span]
    let hash: BackgroundHash
    private let descriptor: Int32

    /// Scans the regular file `path` for the lines that hold cases (the ones ``Dataset/parseJSONL(_:path:)``
    /// parses) and starts hashing it; nil when it cannot be opened or is not a regular file (``Dataset/load(path:skipInvalid:)``
    /// then reads it, or says why it cannot).
    init?(scanning path: String) {
        // Checked before opening: opening a pipe would take the bytes its writer sends, which `load` then needs.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        self.descriptor = descriptor
        spans = Self.scan(descriptor, size: Int(info.st_size))
        hash = BackgroundHash(path: path, descriptor: dup(descriptor))
    }

    deinit { close(descriptor) }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The file mapped and scanned with `memchr`; pages already scanned are dropped as the scan goes, so even a
    /// gigabyte file never sits in memory whole.
    private static func scan(_ descriptor: Int32, size: Int) -> [Span] {
        guard size > 0, let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
            mapping != UnsafeMutableRawPointer(bitPattern: -1)
        else { return [] }
        defer { munmap(mapping, size) }
        _ = madvise(mapping, size, MADV_SEQUENTIAL)
        let buffer = UnsafeRawBufferPointer(start: mapping, count: size)
        let window = 8 << 20
        var spans: [Span] = []
        spans.reserveCapacity(size / 64)
        var start = 0
        var lineNumber = 0
        var released = 0
        while start <= size {
            lineNumber += 1
            let end = memchr(mapping + start, Int32(UInt8(ascii: "\n")), size - start).map { $0 - mapping } ?? size
            defer { start = end + 1 }
            if let span = trimmedSpan(buffer, start..<end, line: lineNumber) { spans.append(span) }
            if end - released >= window {
                let upTo = end & ~(Int(getpagesize()) - 1)
                _ = madvise(mapping + released, upTo - released, MADV_DONTNEED)
                released = upTo
            }
        }
        return spans
    }

    /// The line `range` without surrounding white space; nil for a blank or `//` comment line.
    private static func trimmedSpan(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>, line: Int) -> Span? {
        var first = range.lowerBound
        var last = range.upperBound
        while first < last, isJSONWhitespace(buffer[first]) { first += 1 }
        while last > first, isJSONWhitespace(buffer[last - 1]) { last -= 1 }
        if first == last { return nil }
        if last - first >= 2, buffer[first] == UInt8(ascii: "/"), buffer[first + 1] == UInt8(ascii: "/") { return nil }
        return Span(start: first, length: UInt32(last - first), line: UInt32(line))
    }

    /// The case on the `index`-th case line, read from the file and decoded now.
    func evalCase(at index: Int, path: String) throws(DatasetError) -> EvalCase {
        let span = spans[index]
        let result = withUnsafeTemporaryAllocation(byteCount: Int(span.length), alignment: 1) { buffer in
            read(span, into: buffer) ? Self.decode(UnsafeRawBufferPointer(buffer), span) : Self.changed
        }
        switch result {
        case .success(let item): return item
        case .failure(let problem): throw .invalidLine(path: path, line: Int(span.line), detail: problem.message)
        }
    }

    private static let changed = Result<EvalCase, Dataset.Problem>.failure(
        Dataset.Problem(message: "could not be read again (did the file change during the run?)"))

    /// Reads `span`'s bytes at its offset; false when the file no longer holds them.
    private func read(_ span: Span, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(span.start + done))
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            done += count
        }
        return true
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, _ span: Span) -> Result<EvalCase, Dataset.Problem> {
        guard let line = String(validating: bytes, as: UTF8.self) else {
            return .failure(Dataset.Problem(message: "not valid UTF-8"))
        }
        // Spans hold no blank or comment line, so the parser always answers.
        return Dataset.parseLine(line, number: Int(span.line)) ?? .failure(Dataset.Problem(message: "not a case"))
    }

    /// Decodes every case line as ``Dataset/load(path:skipInvalid:)`` does and throws what it would have thrown
    /// (every bad line, duplicate ids); `check` sees each case of the first `limit` (the plan's own checks).
    /// Reads the file in blocks, not a line at a time, and yields now and then, so a run already sending keeps its
    /// pace while a large file is checked.
    func validate(path: String, limit: Int, check: (EvalCase) throws(EvalError) -> Void) async throws(EvalError) {
        var errors: [DatasetError] = []
        var seen: [String: Int] = [:]
        seen.reserveCapacity(spans.count)
        let block = Block(descriptor: descriptor)
        for (index, span) in spans.enumerated() {
            if index % 2_000 == 1_999 { await Task.yield() }
            let decoded = block.bytes(of: span).map { Self.decode($0, span) } ?? Self.changed
            switch decoded {
            case .failure(let problem):
                errors.append(.invalidLine(path: path, line: Int(span.line), detail: problem.message))
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

    /// A 1 MiB window on the file, refilled when a span falls outside it: one `pread` per block instead of per line.
    private final class Block {
        private let descriptor: Int32
        private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        private var offset = 0
        private var count = 0

        init(descriptor: Int32) { self.descriptor = descriptor }
        deinit { buffer.deallocate() }

        /// `span`'s bytes, valid until the next call; nil when the file no longer holds them.
        func bytes(of span: Span) -> UnsafeRawBufferPointer? {
            let length = Int(span.length)
            if span.start < offset || span.start + length > offset + count, !fill(from: span.start, atLeast: length) {
                return nil
            }
            return UnsafeRawBufferPointer(rebasing: buffer[(span.start - offset)..<(span.start - offset + length)])
        }

        private func fill(from start: Int, atLeast length: Int) -> Bool {
            if length > buffer.count {
                buffer.deallocate()
                buffer = .allocate(byteCount: length, alignment: 16)
            }
            offset = start
            count = 0
            while count < buffer.count {
                let read = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(start + count))
                if read < 0 && errno == EINTR { continue }
                if read <= 0 { break }
                count += read
            }
            return count >= length
        }
    }
}
