import Foundation

/// Decodes `Decodable` types from an already parsed `JSONValue` tree.
///
/// Foundation's `JSONDecoder` decodes `JSONValue` (schemas, options, structured output inside a config) by trying
/// each JSON type in turn, building and discarding an error for every miss; on Linux that was half of config
/// start-up. Parsing once with `JSONValue(parsing:)` and decoding from the tree makes a `JSONValue` member a copy.
/// Errors are ordinary `DecodingError`s with coding paths.
package struct JSONValueDecoder: Sendable {
    /// Creates a decoder; it holds no state, so one can be shared.
    package init() {}

    /// Decodes `type` from `value`.
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: TreeDecoder(value: value, codingPath: []))
    }
}

extension JSONValue {
    /// `value` as a tree: the one way an `Encodable` (a run's arguments, a value placed into a document being
    /// assembled) becomes a `JSONValue`, through Foundation's encoder and this module's parser.
    package init(encoding value: some Encodable) throws {
        self = try JSONValue(parsing: String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }
}

/// The `Decoder` over one node. `JSONValue.init(from:)` recognises it and takes the node as it is.
struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedTreeContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedTreeContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleTreeContainer(value: value, codingPath: codingPath)
    }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.typeName)"))
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    /// "Index N", as Foundation names array positions, so paths read the same whichever decoder made them.
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// Primitive conversions shared by the three containers.
///
/// The coding path is an autoclosure, built only for an error or a nested value: appending the key to the path for
/// every primitive member (an array allocation each) was a large share of decoding a 200-feature config at
/// start-up (`hybrid-bench config`).
private enum Primitive {
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        switch type {
        case is Bool.Type:
            guard case .bool(let b) = value else { throw mismatch(type, value, path()) }
            return b as! T
        case is String.Type:
            guard case .string(let s) = value else { throw mismatch(type, value, path()) }
            return s as! T
        case is Double.Type:
            guard let d = value.doubleValue else { throw mismatch(type, value, path()) }
            return d as! T
        case is Float.Type:
            guard let d = value.doubleValue else { throw mismatch(type, value, path()) }
            return Float(d) as! T
        case is Int.Type:
            guard let i = value.intValue else { throw mismatch(type, value, path()) }
            return i as! T
        case let integer as any FixedWidthInteger.Type:
            guard let i = value.intValue, let converted = integer.init(exactly: i) else { throw mismatch(type, value, path()) }
            return converted as! T
        default:
            do {
                return try T(from: TreeDecoder(value: value, codingPath: path()))
            } catch DecodingError.dataCorrupted(let context) {
                throw namingTheCases(of: type, value, context)
            }
        }
    }

    /// The standard library's error for a string enum given an unknown value ("Cannot initialize Kind from invalid
    /// String value x") names a Swift type the reader of a config never sees; this one names the values it takes.
    private static func namingTheCases<T>(of type: T.Type, _ value: JSONValue, _ context: DecodingError.Context) -> DecodingError {
        guard case .string(let raw) = value, context.debugDescription.hasPrefix("Cannot initialize"),
            let cases = type as? any CaseIterable.Type
        else { return .dataCorrupted(context) }
        let known = rawValues(of: cases).map { "\"\($0)\"" }.joined(separator: ", ")
        return .dataCorrupted(.init(codingPath: context.codingPath, debugDescription: "unknown value \"\(raw)\"; expected one of \(known)"))
    }

    private static func rawValues<E: CaseIterable>(of _: E.Type) -> [String] {
        E.allCases.compactMap { ($0 as? any RawRepresentable).map { "\($0.rawValue)" } }
    }
}

private struct KeyedTreeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for key \(key.stringValue)"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Primitive.decode(type, try member(key), codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try Primitive.decode(type, value, codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: try member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { TreeDecoder(value: .object(members), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedTreeContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element and its index; the coding path is left to the caller, which builds it only when needed.
    private mutating func advance(_ type: Any.Type) throws -> (JSONValue, Int) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], currentIndex)
    }

    private mutating func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        let (value, index) = try advance(type)
        return (value, codingPath + [IndexKey(index)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, index) = try advance(type)
        return try Primitive.decode(type, value, codingPath + [IndexKey(index)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next([String: JSONValue].self)
        return try TreeDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try TreeDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return TreeDecoder(value: value, codingPath: path)
    }
}

private struct SingleTreeContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Primitive.decode(type, value, codingPath)
    }
}
