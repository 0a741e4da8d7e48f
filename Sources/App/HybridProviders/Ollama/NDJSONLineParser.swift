import Foundation

/// Splits a newline-delimited JSON body into lines, whatever the chunking.
///
/// A chunk may end anywhere: in the middle of a line, between `\r` and `\n`, or inside a multi-byte UTF-8
/// character. Bytes are buffered until a `\n` completes the line; a trailing `\r` is dropped and blank lines are
/// skipped. `finish()` returns a last line the body ended without a newline.
struct NDJSONLineParser: Sendable {
    private var buffer: [UInt8] = []

    /// Consumes one chunk and returns the lines it completed, in order, without their line breaks.
    mutating func feed(_ chunk: Data) -> [Data] {
        var lines: [Data] = []
        for byte in chunk {
            if byte == 0x0A {
                if let line = takeLine() { lines.append(line) }
            } else {
                buffer.append(byte)
            }
        }
        return lines
    }

    /// The body ended: the unterminated last line, if it has any content.
    mutating func finish() -> Data? {
        takeLine()
    }

    private mutating func takeLine() -> Data? {
        var line = buffer[...]
        buffer.removeAll(keepingCapacity: true)
        if line.last == 0x0D { line = line.dropLast() }
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
        return Data(line)
    }
}
