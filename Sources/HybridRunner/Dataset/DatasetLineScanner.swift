import HybridCore

/// Reads the plain shape of a case line (`{"id": "…", "input": {"name": "text", …}, "reference": {"expectedText":
/// "…"}}`) straight from its bytes into an ``EvalCase``, without building a `JSONValue` tree: every line is decoded
/// twice (once when the file is validated, once when its sample runs), and the tree, its dictionaries and their
/// release were most of that cost.
///
/// It vouches only for what it fully understands: a non-empty string `id`, an `input` object of strings, and a
/// `reference` that is `null` or holds only `expectedText` and `regex` strings. Anything else (numbers, `tags`,
/// `messages`, a duplicate or escaped key, trailing bytes) returns nil and the line goes through
/// ``Dataset/makeCase(_:line:)``, which gives the same case or reports the problem.
struct DatasetLineScanner {
    private typealias Stop = JSONByteScanner.Stop

    private var json: JSONByteScanner

    /// The case on `bytes` (one line, at 1-based `line`), or nil when the scanner cannot vouch for it.
    static func evalCase(_ bytes: UnsafeRawBufferPointer, line: Int) -> EvalCase? {
        var scanner = DatasetLineScanner(json: JSONByteScanner(bytes.assumingMemoryBound(to: UInt8.self)))
        guard let evalCase = try? scanner.readCase(line: line) else { return nil }
        scanner.json.skipWhitespace()
        return scanner.json.atEnd ? evalCase : nil
    }

    private mutating func readCase(line: Int) throws(Stop) -> EvalCase {
        var id: String?
        var input: [String: String]?
        var reference: Reference?
        var sawReference = false
        guard try json.openObject() else { throw Stop() }
        repeat {
            let key = try json.readKey()
            if json.matches(key, "id"), id == nil {
                id = try json.readString()
            } else if json.matches(key, "input"), input == nil {
                input = try readInput()
            } else if json.matches(key, "reference"), !sawReference {
                reference = try readReference()
                sawReference = true
            } else {
                throw Stop()
            }
        } while try json.continues(before: UInt8(ascii: "}"))
        guard let id, !id.isEmpty, let input else { throw Stop() }
        return EvalCase(id: id, input: input, reference: reference, line: line)
    }

    private mutating func readInput() throws(Stop) -> [String: String] {
        var input: [String: String] = [:]
        guard try json.openObject() else { return input }
        repeat {
            let range = try json.readKey()
            let name = String(decoding: UnsafeBufferPointer(rebasing: json.bytes[range]), as: UTF8.self)
            guard input.updateValue(try json.readString(), forKey: name) == nil else { throw Stop() }
        } while try json.continues(before: UInt8(ascii: "}"))
        return input
    }

    /// A reference that passes ``Reference/validate()``, or nil for `null`.
    private mutating func readReference() throws(Stop) -> Reference? {
        if try json.readNull() { return nil }
        var reference = Reference()
        if try json.openObject() {
            repeat {
                let key = try json.readKey()
                if json.matches(key, "expectedText"), reference.expectedText == nil {
                    reference.expectedText = try json.readString()
                } else if json.matches(key, "regex"), reference.regex == nil {
                    reference.regex = try json.readString()
                } else {
                    throw Stop()
                }
            } while try json.continues(before: UInt8(ascii: "}"))
        }
        do {
            try reference.validate()
        } catch {
            throw Stop()
        }
        return reference
    }
}
