/// A value PostgreSQL can hold in an array parameter, with the OID of its array type.
protocol PostgresArrayElement: PostgresEncodable {
    static var postgresArrayType: UInt32 { get }
}

extension String: PostgresArrayElement {
    static var postgresArrayType: UInt32 { 1009 }  // text[]
}

extension Int: PostgresArrayElement {
    static var postgresArrayType: UInt32 { 1016 }  // int8[]
}

extension Int64: PostgresArrayElement {
    static var postgresArrayType: UInt32 { 1016 }
}

extension Double: PostgresArrayElement {
    static var postgresArrayType: UInt32 { 1022 }  // float8[]
}

extension Bool: PostgresArrayElement {
    static var postgresArrayType: UInt32 { 1000 }  // bool[]
}

/// One array parameter in PostgreSQL's text form (`{"a","b",NULL}`): a column of many rows bound as one value,
/// so `INSERT … SELECT * FROM unnest($1, $2, …)` stores a batch through a statement of constant size.
struct PostgresArray<Element: PostgresArrayElement>: PostgresEncodable {
    var elements: [Element?]

    static var postgresType: UInt32 { Element.postgresArrayType }

    /// Every element quoted (`"` and `\` escaped), which each element type's input accepts; nil is `NULL`.
    var postgresText: String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(elements.count * 16 + 2)
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let element else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            for byte in element.postgresText.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
