/// A link to a page of the viewer: a path and query parameters, percent-encoded so any run id, case id or search
/// text round-trips through ``QueryParameters``.
struct ViewLink: Sendable {
    var path: String
    var parameters: [(String, String?)]

    init(_ path: String, _ parameters: [(String, String?)] = []) {
        self.path = path
        self.parameters = parameters
    }

    /// `path?name=value&…`, leaving out parameters whose value is nil.
    var href: String {
        let query = parameters.compactMap { name, value in value.map { "\(Self.encode(name))=\(Self.encode($0))" } }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// Encodes every byte except the unreserved characters of RFC 3986.
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
