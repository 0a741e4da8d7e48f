import HybridCore

/// A prompt with `{{variable}}` placeholders, parsed once and rendered with the app's values.
///
/// Syntax: `{{name}}` (spaces inside the braces allowed) where `name` is letters, digits and `_`, not starting with
/// a digit. A literal `{{` is written `\{{`; no other backslash sequence is special, so `\n` in a template file is
/// two characters. Values are inserted verbatim (no escaping, no recursive expansion), so a value containing
/// `{{x}}` stays literal text.
package struct PromptTemplate: Sendable, Hashable {
    /// A piece of a parsed template.
    enum Segment: Sendable, Hashable {
        case text(String)
        case variable(String)
    }

    /// Why a template could not be parsed or rendered.
    package enum TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
        /// `{{` without a matching `}}`; `offset` counts characters from the start.
        case unterminatedPlaceholder(offset: Int)
        /// `{{ }}` with a name that is empty or has characters other than letters, digits and `_`.
        case invalidVariableName(String, offset: Int)
        /// Rendering found no value for a variable.
        case missingValue(String)

        package var description: String {
            switch self {
            case .unterminatedPlaceholder(let offset):
                "unterminated placeholder: \"{{\" at character \(offset) has no closing \"}}\" (write \\{{ for a literal \"{{\")"
            case .invalidVariableName(let name, let offset):
                "invalid variable name \"\(name)\" at character \(offset): use letters, digits and _"
            case .missingValue(let name):
                "no value for template variable \"\(name)\""
            }
        }
    }

    /// The template text as written.
    let source: String
    /// Text and variables in order.
    let segments: [Segment]

    /// Parses `source`.
    package init(_ source: String) throws(TemplateError) {
        self.source = source
        self.segments = try Self.parse(source)
    }

    /// Variable names in order of first appearance, without duplicates.
    package var variables: [String] {
        var seen = Set<String>()
        var names: [String] = []
        for case .variable(let name) in segments where seen.insert(name).inserted {
            names.append(name)
        }
        return names
    }

    /// The template with every variable replaced by its value.
    func render(_ values: [String: String]) throws(TemplateError) -> String {
        var out = ""
        out.reserveCapacity(source.utf8.count)
        for segment in segments {
            switch segment {
            case .text(let text):
                out += text
            case .variable(let name):
                guard let value = values[name] else { throw .missingValue(name) }
                out += value
            }
        }
        return out
    }

    /// The variable names of `source` in order, repeats included, after the same syntax checks as ``init(_:)``
    /// (same errors) but without building its text segments: the validator checks every template of a config on
    /// each load and only needs the names.
    static func variableOccurrences(in source: String) throws(TemplateError) -> [String] {
        var names: [String] = []
        for case .variable(let name) in try parse(source, keepText: false) { names.append(name) }
        return names
    }

    /// Scans UTF-8 bytes: the delimiters are ASCII, so a byte scan finds them without grapheme breaking, which made
    /// parsing a large config's templates a sixth of its start-up. Offsets in errors count characters.
    private static func parse(_ source: String, keepText: Bool = true) throws(TemplateError) -> [Segment] {
        var source = source
        // A native string is contiguous UTF-8 already: the scan reads its own storage instead of a copy.
        return try source.withUTF8 { bytes in
            Result { () throws(TemplateError) in try parse(bytes: bytes, keepText: keepText) }
        }.get()
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, keepText: Bool) throws(TemplateError) -> [Segment] {
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}"), backslash = UInt8(ascii: "\\")
        var segments: [Segment] = []
        // A placeholder opens with two braces and adds at most two segments: room for all of them at once.
        if keepText {
            var braces = 0
            for byte in bytes where byte == open { braces += 1 }
            segments.reserveCapacity(braces + 1)
        }
        // Literal text is decoded straight from the source bytes, a run at a time; only a run broken by `\{{`
        // escapes is gathered into `escaped` first.
        var escaped: [UInt8] = []
        var i = 0
        func characterOffset(_ byteOffset: Int) -> Int {
            String(decoding: bytes[..<byteOffset], as: UTF8.self).count
        }
        var runStart = 0
        func endText(at end: Int) {
            guard keepText else { return }
            if escaped.isEmpty {
                if runStart < end { segments.append(.text(String(decoding: bytes[runStart..<end], as: UTF8.self))) }
                return
            }
            escaped += bytes[runStart..<end]
            segments.append(.text(String(decoding: escaped, as: UTF8.self)))
            escaped.removeAll(keepingCapacity: true)
        }
        while true {
            // Text runs are most of a template: skip to the next brace or backslash a word at a time.
            i = ByteWordSearch.firstIndex(in: UnsafeRawBufferPointer(bytes), from: i, equalTo: open, or: backslash, below: 0)
            guard i < bytes.count else { break }
            let c = bytes[i]
            if c == backslash, i + 2 < bytes.count, bytes[i + 1] == open, bytes[i + 2] == open {
                if keepText {
                    escaped += bytes[runStart..<i]
                    escaped.append(open)
                    escaped.append(open)
                }
                i += 3
                runStart = i
                continue
            }
            if c == open, i + 1 < bytes.count, bytes[i + 1] == open {
                let start = i
                var j = i + 2
                var closed = false
                while j + 1 < bytes.count {
                    if bytes[j] == close && bytes[j + 1] == close {
                        closed = true
                        break
                    }
                    j += 1
                }
                guard closed else { throw .unterminatedPlaceholder(offset: characterOffset(start)) }
                let name = trimmedName(bytes[(i + 2)..<j])
                guard isValidName(name) else { throw .invalidVariableName(name, offset: characterOffset(start)) }
                endText(at: i)
                segments.append(.variable(name))
                i = j + 2
                runStart = i
                continue
            }
            i += 1
        }
        endText(at: bytes.count)
        return segments
    }

    /// The placeholder's name without surrounding spaces and tabs; trimming bytes instead of building a
    /// `CharacterSet` per placeholder (every template is parsed whenever a config is validated).
    private static func trimmedName(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// Whether `name` can be a template variable (and a feature input).
    ///
    /// Byte by byte: every allowed character is ASCII, so any byte of a longer UTF-8 sequence refuses the name.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !isDigit(first) else { return false }
        var name = name
        return name.withUTF8 { $0.allSatisfy { byte in
            let folded = byte | 0x20
            return isDigit(byte) || (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
        } }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
