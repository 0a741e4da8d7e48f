import HybridCore

/// Reads one JSON object of a parsed config the way the `Decodable` conformances do, without going through
/// `Decoder`: on a 200-feature document the generic containers (a boxed container, a coding-path array and
/// a metadata lookup per member) cost more than the rest of start-up together.
///
/// It only ever accepts what the `Decodable` path accepts and yields the same values; anything else (a wrong
/// type, a missing key, an unknown constraint) throws ``Refusal`` and `ConfigValidator` decodes the document the
/// `Decodable` way over the same tree, which words the error with its JSON path. Tests check both give equal documents.
///
/// An object with a key the reader did not read is refused too (``requireAllRead()``): a field added to a
/// `Decodable` conformance but not here then costs speed (that document goes the slow way), never the field.
struct ConfigTreeReader {
    /// This reader does not accept the value; the `Decodable` path decides and explains.
    struct Refusal: Error {}

    let members: [String: JSONValue]
    /// How many of `members` were looked up and found.
    private var read = 0

    init(_ value: JSONValue) throws(Refusal) {
        guard case .object(let members) = value else { throw Refusal() }
        self.members = members
    }

    /// Refuses an object with keys nobody read (unknown to this reader, though maybe not to `Decodable`).
    func requireAllRead() throws(Refusal) {
        guard read == members.count else { throw Refusal() }
    }

    /// The member, when present and not null (what `decodeIfPresent` treats as absent).
    mutating func optional(_ key: String) -> JSONValue? {
        switch members[key] {
        case nil: return nil
        case .null?:
            read += 1
            return nil
        case let value?:
            read += 1
            return value
        }
    }

    mutating func required(_ key: String) throws(Refusal) -> JSONValue {
        guard let value = members[key] else { throw Refusal() }
        read += 1
        return value
    }

    mutating func string(_ key: String) throws(Refusal) -> String { try Self.string(try required(key)) }
    mutating func optionalString(_ key: String) throws(Refusal) -> String? { try optional(key).map(Self.string) }
    mutating func optionalInt(_ key: String) throws(Refusal) -> Int? { try optional(key).map(Self.int) }
    mutating func optionalDouble(_ key: String) throws(Refusal) -> Double? { try optional(key).map(Self.double) }
    mutating func optionalBool(_ key: String) throws(Refusal) -> Bool? { try optional(key).map(Self.bool) }
    mutating func strings(_ key: String) throws(Refusal) -> [String] { try Self.strings(try required(key)) }
    mutating func optionalStrings(_ key: String) throws(Refusal) -> [String]? { try optional(key).map(Self.strings) }

    /// A member of a type this reader does not spell out, through the tree decoder (same result, slower).
    mutating func optionalDecoded<T: Decodable>(_ type: T.Type, _ key: String) throws(Refusal) -> T? {
        try optional(key).map { (value) throws(Refusal) in try Self.decoded(type, value) }
    }

    /// Every member of the object at `key`, each read by `read`.
    mutating func map<T>(_ key: String, _ read: (JSONValue) throws(Refusal) -> T) throws(Refusal) -> [String: T] {
        try Self.map(try required(key), read)
    }

    // MARK: Values (the same accessors as `JSONValueDecoder`'s primitives)

    static func string(_ value: JSONValue) throws(Refusal) -> String {
        guard case .string(let text) = value else { throw Refusal() }
        return text
    }

    static func int(_ value: JSONValue) throws(Refusal) -> Int {
        guard let number = value.intValue else { throw Refusal() }
        return number
    }

    static func double(_ value: JSONValue) throws(Refusal) -> Double {
        guard let number = value.doubleValue else { throw Refusal() }
        return number
    }

    static func bool(_ value: JSONValue) throws(Refusal) -> Bool {
        guard case .bool(let flag) = value else { throw Refusal() }
        return flag
    }

    static func strings(_ value: JSONValue) throws(Refusal) -> [String] {
        guard case .array(let elements) = value else { throw Refusal() }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for element in elements { result.append(try string(element)) }
        return result
    }

    /// `mapValues` keeps the object's hash table layout: no key is hashed again.
    static func map<T>(_ value: JSONValue, _ read: (JSONValue) throws(Refusal) -> T) throws(Refusal) -> [String: T] {
        guard case .object(let members) = value else { throw Refusal() }
        do {
            return try members.mapValues { member throws(Refusal) in try read(member) }
        } catch {
            throw Refusal()
        }
    }

    static func decoded<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws(Refusal) -> T {
        do {
            return try JSONValueDecoder().decode(type, from: value)
        } catch {
            throw Refusal()
        }
    }
}
