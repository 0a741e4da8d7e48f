package import Foundation

extension JSONValue {
    /// Why JSON text could not be parsed: the reason, with line and column.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Parses JSON text strictly (RFC 8259; duplicate keys are an error; integers that fit `Int` stay `.int`).
    ///
    /// Several times faster than `JSONDecoder` into `JSONValue`, whose `Decodable` conformance tries each type in
    /// turn and builds an error for every miss; the store reads a million JSON columns per report through this.
    public init(parsing text: String) throws(ParseError) {
        do {
            self = try JSONTextParser.parse(text)
        } catch {
            throw ParseError(description: error.description)
        }
    }

    /// Parses the JSON in `data` as ``init(parsing:)`` does; bytes that are not UTF-8 are refused, not replaced.
    package init(parsing data: Data) throws(ParseError) {
        guard let text = String(validating: data, as: UTF8.self) else { throw ParseError(description: "not UTF-8 text") }
        try self.init(parsing: text)
    }

    /// Parses `text` as ``init(parsing:)`` does and shows `visit` the decoded UTF-8 bytes of its strings as they
    /// are parsed (`isKey` for object keys), so a check that must see every string needs no second walk over the
    /// tree. Every value string is shown; a short ASCII key repeated through the document may be shown only the
    /// first time (same bytes, same verdict). The bytes are valid only during the call.
    package init(
        parsing text: String, visitingStrings visit: (_ bytes: UnsafeBufferPointer<UInt8>, _ isKey: Bool) -> Void
    ) throws(ParseError) {
        do {
            self = try withoutActuallyEscaping(visit) { (visit) throws(JSONTextParser.Failure) in
                try JSONTextParser.parse(text, visitingStrings: visit)
            }
        } catch {
            throw ParseError(description: error.description)
        }
    }
}
