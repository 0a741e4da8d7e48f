import Foundation
@testable import HybridCore
@testable import HybridValidation
import Testing

/// Objects collect their members in one shared buffer and switch to a dictionary past 16 keys: every size, nesting
/// inside either form, and duplicate keys on both sides of the switch must parse and fail exactly as before.
@Suite("JSONTextParser objects")
struct JSONTextParserObjectTests {
    /// `{"k0": 0, "k1": {"inner0": 0, …}, …}` with `count` keys; odd members are nested objects of `count / 2` keys.
    static func object(_ count: Int) -> String {
        let members = (0..<count).map { i in
            i % 2 == 0 ? "\"k\(i)\": \(i)" : "\"k\(i)\": {" + (0..<(count / 2)).map { "\"inner\($0)\": [\($0), \"s\"]" }.joined(separator: ", ") + "}"
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test("objects of 0 to 40 members, nested in each other, parse to what JSONDecoder reads")
    func everySizeMatchesFoundation() throws {
        for count in 0...40 {
            let text = Self.object(count)
            let parsed = try JSONValue(parsing: text)
            let reference = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(parsed == reference, "\(count) members")
            #expect(parsed.objectValue?.count == count)
        }
    }

    @Test("a duplicate key is reported at the duplicate, below and above 16 members", arguments: [1, 5, 15, 16, 17, 30])
    func duplicateKeyPosition(count: Int) {
        let members = (0..<count).map { "\"key\($0)\": {\"a\": 1}" }
        let prefix = "{" + members.joined(separator: ", ") + ", "
        // The duplicate repeats the first key; the column is the duplicate's opening quote, 1-based.
        let text = prefix + "\"key0\": 2, \"after\": tru}"
        #expect(Self.failure(text) == "duplicate object key \"key0\" at line 1, column \(prefix.utf8.count + 1)")
    }

    @Test("a key repeated inside a nested object fails there; the same key in sibling objects is fine")
    func duplicatesAreScopedToTheirObject() throws {
        let siblings = "{" + (0..<20).map { "\"o\($0)\": {\"same\": \($0)}" }.joined(separator: ", ") + "}"
        #expect(try JSONValue(parsing: siblings).objectValue?["o19"]?["same"] == .int(19))
        let nested = #"{"a": 1, "b": {"x": 1, "x": 2}}"#
        #expect(Self.failure(nested) == "duplicate object key \"x\" at line 1, column 24")
    }

    static func failure(_ text: String) -> String? {
        do {
            _ = try JSONValue(parsing: text)
            return nil
        } catch {
            return error.description
        }
    }
}

/// Messages quote JSON values through the core's one escaper (`JSONTextWriter.string`); the bytes are the ones the
/// message escaper wrote before: two-character escapes, other control characters as lower-case `\u00XX`, the rest
/// (DEL, non-ASCII) as it is.
@Suite("Compact JSON in messages")
struct CompactJSONQuotingTests {
    @Test("a bad schema type is quoted with the same escapes as before")
    func quotesLikeBefore() {
        let type = "a\u{01}\"\\\n\t\u{1F}\u{7F}é"
        do {
            _ = try JSONSchema(["type": .string(type)])
            Issue.record("accepted an unknown type")
        } catch {
            #expect("\(error)".contains(#""a\u0001\"\\\n\t\u001f"# + "\u{7F}é\" is not a type"), "\(error)")
        }
    }
}

/// Past its first few dozen keys a parse numbers short ASCII keys in a table (one `String` per distinct key,
/// duplicate checks by number); everything it accepts, refuses and reports must stay as without the table.
@Suite("JSONTextParser key table")
struct JSONTextParserKeyTableTests {
    /// `count` small objects with the same keys, enough to bring the table in, and `last` as the final member.
    static func document(objects count: Int, last: String) -> String {
        let shape = #"{"a": 1, "bb": "x", "a_fifteen_byte": 2, "a_sixteen_bytes_": 3, "esc\u0061ped": 4}"#
        return "{" + (0..<count).map { "\"o\($0)\": \(shape)" }.joined(separator: ", ") + ", \"last\": \(last)}"
    }

    @Test("a large document parses to what JSONDecoder reads, long and escaped keys included")
    func largeDocumentsMatchFoundation() throws {
        let text = Self.document(objects: 80, last: "{}")
        let parsed = try JSONValue(parsing: text)
        #expect(parsed == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
        #expect(parsed["o79"]?["escaped"] == .int(4))
        #expect(parsed["o79"]?["a_sixteen_bytes_"] == .int(3))
    }

    @Test("duplicates are found once the table is in use, in every spelling Dictionary would merge", arguments: [
        #"{"bb": 1, "a": 2, "bb": 3}"#,
        #"{"bb": 1, "b\u0062": 3}"#,
        #"{"a_sixteen_bytes_": 1, "a_sixteen_bytes_": 2}"#,
        #"{"K": 1, "\u212A": 2}"#,
    ])
    func duplicatesStayDuplicates(last: String) {
        for objects in [1, 80] {
            let failure = JSONTextParserObjectTests.failure(Self.document(objects: objects, last: last))
            #expect(failure?.hasPrefix("duplicate object key") == true, "\(objects) objects before: \(failure ?? "parsed")")
        }
    }

    @Test("the string visitor sees every value decoded, and every distinct key")
    func visitorSeesDecodedStrings() throws {
        var seen: [String] = []
        let text = Self.document(objects: 80, last: #"["s\u006b-x", "line\nbreak"]"#)
        _ = try JSONValue(parsing: text) { bytes, isKey in
            seen.append((isKey ? "key " : "") + String(decoding: bytes, as: UTF8.self))
        }
        #expect(seen.contains("sk-x") && seen.contains("line\nbreak") && seen.contains("key escaped"))
        #expect(seen.filter { $0 == "x" }.count == 80)
        for key in ["key a", "key bb", "key a_fifteen_byte", "key o79", "key last"] {
            #expect(seen.contains(key), "\(key)")
        }
    }
}

/// String contents are searched eight bytes at a time for the closing quote, an escape or a control character:
/// each at every offset of a word, after multi-byte UTF-8 and bytes just above the control range, must read as a
/// byte-at-a-time scan would.
@Suite("JSONTextParser string scan")
struct JSONTextParserStringScanTests {
    @Test("escapes, quotes and control characters at every offset")
    func everyOffset() throws {
        for length in 0..<20 {
            let filler = String(String(repeating: "é ! ~", count: 4).prefix(length))
            let escaped = "\"" + filler + #"\n\u00e9 \" end"# + "\""
            #expect(try JSONValue(parsing: escaped) == .string(filler + "\né \" end"), "\(length)")
            #expect(try JSONValue(parsing: "[\"" + filler + "\"]") == .array([.string(filler)]))
            let control = "\"" + filler + "\u{1F}x\""
            #expect(JSONTextParserObjectTests.failure(control)
                == "unescaped control character in string at line 1, column \(filler.utf8.count + 2)", "\(length)")
            #expect(JSONTextParserObjectTests.failure("\"" + filler)?.hasPrefix("unterminated string") == true)
        }
    }
}

/// A writer of optional members keeps no comma flag of its own: the writer knows an object's first key from the `{`
/// before it.
@Suite("JSONTextWriter keys")
struct JSONTextWriterKeyTests {
    @Test("a key right after `{` has no comma, any later key has one, nested objects included")
    func commasFollowTheBytes() {
        var out = JSONTextWriter()
        out.raw("{")
        out.key("a")
        out.number(1)
        out.key("b")
        out.raw("{")
        out.key("c")
        out.string("x")
        out.raw("}")
        out.key("d")
        out.raw("[]")
        out.raw("}")
        #expect(out.text == #"{"a":1,"b":{"c":"x"},"d":[]}"#)
        #expect(JSONValue.isParsed(out.text))
    }

    @Test("member writes a set optional with its key and leaves a nil one out, first or not")
    func membersLeaveNilOut() {
        var out = JSONTextWriter()
        out.raw("{")
        out.member("a", nil as String?)
        out.member("b", 2 as Int?)
        out.member("c", nil as JSONValue?)
        out.member("d", 0.5 as Double?)
        out.member("e", "x" as String?)
        out.member("f", ["g": true] as JSONValue?)
        out.raw("}")
        #expect(out.text == #"{"b":2,"d":0.5,"e":"x","f":{"g":true}}"#)
    }
}

extension JSONValue {
    fileprivate static func isParsed(_ text: String) -> Bool { (try? JSONValue(parsing: text)) != nil }
}
