import Foundation

/// Derives the JSON Schema of a `Decodable` type by decoding it once from a decoder that records what it is asked
/// for: each key the synthesised `init(from:)` decodes, whether it asked with `decodeIfPresent` (optional), and the
/// type it asked for. No value is read; placeholders satisfy the initialiser.
///
/// The schema is the strict subset every provider accepts: every object lists all its properties as `required` with
/// `additionalProperties: false` (OpenAI's strict mode demands both), and an optional property may be `null`.
enum SchemaDerivation {
    /// Why a type has no derivable schema: where (the property path, `address.city`; empty for the root), and what
    /// went wrong. ``schema(of:guides:typeDescription:)`` names the type in the ``StructuredOutputError`` it throws.
    struct Failure: Error, Sendable {
        var path: String
        var kind: StructuredOutputError.Kind
    }

    /// The schema of `type`, with `guides` (JSON Schema keywords) by property path and `typeDescription` on the root.
    static func schema<T: Decodable>(
        of type: T.Type, guides: [String: JSONValue] = [:], typeDescription: String? = nil
    ) throws(StructuredOutputError) -> JSONValue {
        do {
            return try derive(T.self, guides: guides, typeDescription: typeDescription)
        } catch {
            throw StructuredOutputError(typeName: String(describing: T.self), path: error.path, kind: error.kind)
        }
    }

    private static func derive<T: Decodable>(
        _ type: T.Type, guides: [String: JSONValue], typeDescription: String?
    ) throws(Failure) -> JSONValue {
        let root = NodeBox()
        do {
            _ = try root.derive(T.self, path: [])
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: "", kind: .underivable("\(error)"))
        }
        try check(guides, against: root.node.propertyPaths(under: ""))
        var schema = root.node.schema(path: "", guides: guides)
        if let typeDescription, case .object(var members) = schema {
            members["description"] = .string(typeDescription)
            schema = .object(members)
        }
        return schema
    }

    /// Guide keywords and the kinds of value each applies to (nil: any).
    static let guideKeywords: [String: Set<String>?] = [
        "description": nil, "minItems": ["array"], "maxItems": ["array"], "minimum": ["number"], "maximum": ["number"],
        "exclusiveMinimum": ["number"], "exclusiveMaximum": ["number"], "pattern": ["string"], "minLength": ["string"],
        "maxLength": ["string"], "enum": ["string", "number"],
    ]

    /// A guide naming a property the type does not have, a keyword outside ``guideKeywords`` or one that does not
    /// apply to the property's kind is a mistake: an error at first use, not silence. A misspelt name comes with the
    /// nearest name the type has.
    private static func check(_ guides: [String: JSONValue], against known: [String: DerivedNode]) throws(Failure) {
        let names = known.keys.sorted()
        let unknown = guides.keys.filter { known[$0] == nil }.sorted()
        if let first = unknown.first {
            throw Failure(
                path: first,
                kind: .unknownGuides(unknown.map { StructuredOutputError.UnknownGuide($0, among: names) }, known: names))
        }
        for (path, guide) in guides.sorted(by: { $0.key < $1.key }) {
            guard case .object(let keywords) = guide else { throw Failure(path: path, kind: .guideNotObject) }
            let kind = known[path]?.kind ?? ""
            for keyword in keywords.keys.sorted() {
                guard let applies = guideKeywords[keyword] else { throw Failure(path: path, kind: .unknownKeyword(keyword)) }
                if let applies, !applies.contains(kind) {
                    throw Failure(path: path, kind: .keywordNotApplicable(keyword, appliesTo: applies.sorted(), kind: kind))
                }
            }
        }
    }
}

/// What one position of the type holds. Children are boxes: a nested container fills its box after the parent
/// recorded it.
enum DerivedNode {
    case unknown
    case string(format: String?)
    case integer
    case number
    case boolean
    /// The raw values of a `CaseIterable` enum backed by `String` or an integer (all strings or all integers).
    case choice([JSONValue])
    case array(NodeBox)
    case object([(name: String, box: NodeBox, optional: Bool)])
    case map(NodeBox)

    /// The kind of value, as guide keywords name them.
    var kind: String {
        switch self {
        case .string: "string"
        case .choice(let cases): cases.contains { $0.stringValue == nil } ? "number" : "string"
        case .integer, .number: "number"
        case .boolean: "boolean"
        case .array: "array"
        case .object, .map: "object"
        case .unknown: "unknown"
        }
    }

    func schema(path: String, guides: [String: JSONValue]) -> JSONValue {
        var out: [String: JSONValue]
        switch self {
        case .unknown: out = [:]
        case .string(let format):
            out = ["type": "string"]
            if let format { out["format"] = .string(format) }
        case .integer: out = ["type": "integer"]
        case .number: out = ["type": "number"]
        case .boolean: out = ["type": "boolean"]
        case .choice(let cases): out = ["type": .string(kind == "string" ? "string" : "integer"), "enum": .array(cases)]
        case .array(let element):
            out = ["type": "array", "items": element.node.schema(path: path + "[]", guides: guides)]
        case .map(let value):
            out = ["type": "object", "additionalProperties": value.node.schema(path: path + "{}", guides: guides)]
        case .object(let properties):
            var members: [String: JSONValue] = [:]
            for property in properties {
                let childPath = path.isEmpty ? property.name : path + "." + property.name
                var child = property.box.node.schema(path: childPath, guides: guides)
                if property.optional { child = Self.nullable(child) }
                members[property.name] = child
            }
            out = [
                "type": "object", "properties": .object(members),
                "required": .array(properties.map { .string($0.name) }), "additionalProperties": false,
            ]
        }
        if case .object(let keywords)? = guides[path], !path.isEmpty {
            for (keyword, value) in keywords { out[keyword] = value }
        }
        return .object(out)
    }

    /// Every path a guide may name, with what is there: each property (`address.city`), array elements (`tags[]`)
    /// and map values (`scores{}`) under `path`.
    func propertyPaths(under path: String) -> [String: DerivedNode] {
        switch self {
        case .array(let element):
            return [path + "[]": element.node].merging(element.node.propertyPaths(under: path + "[]")) { first, _ in first }
        case .map(let value):
            return [path + "{}": value.node].merging(value.node.propertyPaths(under: path + "{}")) { first, _ in first }
        case .object(let properties):
            var out: [String: DerivedNode] = [:]
            for property in properties {
                let child = path.isEmpty ? property.name : path + "." + property.name
                out[child] = property.box.node
                out.merge(property.box.node.propertyPaths(under: child)) { first, _ in first }
            }
            return out
        default:
            return [:]
        }
    }

    /// `type: [T, "null"]` for a plain type, `anyOf` with null otherwise.
    private static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        if case .string(let type) = members["type"], members["enum"] == nil {
            members["type"] = .array([.string(type), "null"])
            return .object(members)
        }
        let description = members.removeValue(forKey: "description")
        var out: [String: JSONValue] = ["anyOf": .array([.object(members), ["type": "null"]])]
        if let description { out["description"] = description }
        return .object(out)
    }
}

/// A node being recorded; a class so containers handed out by the decoder can fill it later.
final class NodeBox {
    var node: DerivedNode = .unknown

    /// Records `T` at this position and returns a placeholder value of it.
    func derive<T: Decodable>(_ type: T.Type, path: [any CodingKey]) throws -> T {
        if let value = primitive(T.self) { return value }
        if let value = try choice(T.self, path: path) { return value }
        if let map = T.self as? any DerivableStringMap.Type {
            let element = NodeBox()
            node = .map(element)
            if let value = try map.derivePlaceholder(into: element, path: path) as? T { return value }
        }
        do {
            return try T(from: DerivingDecoder(box: self, codingPath: path))
        } catch let failure as SchemaDerivation.Failure {
            throw failure
        } catch where T.self is any RawRepresentable.Type && !(T.self is any CaseIterable.Type) {
            // A raw-value enum's decoding refuses the placeholder raw value; its cases are what is missing.
            throw SchemaDerivation.Failure(path: Self.describe(path), kind: .notCaseIterable(String(describing: T.self)))
        } catch {
            throw SchemaDerivation.Failure(path: Self.describe(path), kind: .underivable("\(error)"))
        }
    }

    /// A `CaseIterable` enum backed by `String` or an integer is a choice of its raw
    /// values, with its first case as the placeholder; nil for any other type.
    private func choice<T>(_ type: T.Type, path: [any CodingKey]) throws(SchemaDerivation.Failure) -> T? {
        guard let iterable = T.self as? any CaseIterable.Type, let (cases, first) = Self.rawCases(of: iterable) else {
            return nil
        }
        guard let first = first as? T else {
            throw SchemaDerivation.Failure(path: Self.describe(path), kind: .noCases(String(describing: T.self)))
        }
        node = .choice(cases)
        return first
    }

    /// The cases' raw values as JSON and the first case; nil unless every raw value is a string or an integer.
    private static func rawCases<C: CaseIterable>(of type: C.Type) -> ([JSONValue], Any?)? {
        var raws: [JSONValue] = []
        for value in type.allCases {
            guard let raw = value as? any RawRepresentable, let json = rawJSON(raw) else { return nil }
            raws.append(json)
        }
        let strings = raws.filter { $0.stringValue != nil }.count
        return strings == 0 || strings == raws.count ? (raws, type.allCases.first) : nil
    }

    private static func rawJSON<R: RawRepresentable>(_ value: R) -> JSONValue? {
        switch value.rawValue {
        case let string as String: .string(string)
        case let integer as any BinaryInteger: Int(exactly: integer).map(JSONValue.int)
        default: nil
        }
    }

    /// Placeholders for the types a decoder has dedicated methods or formats for.
    private func primitive<T>(_ type: T.Type) -> T? {
        switch type {
        case is String.Type: node = .string(format: nil); return "" as? T
        case is Bool.Type: node = .boolean; return false as? T
        case is Double.Type: node = .number; return 0.0 as? T
        case is Float.Type: node = .number; return Float(0) as? T
        case is Int.Type: node = .integer; return 0 as? T
        case is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type, is UInt.Type, is UInt8.Type, is UInt16.Type,
            is UInt32.Type, is UInt64.Type:
            node = .integer
            return (type as? any FixedWidthInteger.Type)?.zero as? T
        case is Date.Type: node = .string(format: "date-time"); return Date(timeIntervalSince1970: 0) as? T
        case is URL.Type: node = .string(format: "uri"); return URL(string: "https://example.com") as? T
        case is UUID.Type: node = .string(format: "uuid"); return UUID() as? T
        default: return nil
        }
    }

    static func describe(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

extension FixedWidthInteger {
    fileprivate static var zero: Self { 0 }
}

/// `[String: V]`: a map whose values share one schema.
protocol DerivableStringMap {
    static func derivePlaceholder(into box: NodeBox, path: [any CodingKey]) throws -> Any
}

extension Dictionary: DerivableStringMap where Key == String, Value: Decodable {
    static func derivePlaceholder(into box: NodeBox, path: [any CodingKey]) throws -> Any {
        _ = try box.derive(Value.self, path: path)
        return [String: Value]()
    }
}

/// The recording decoder over one node.
struct DerivingDecoder: Decoder {
    let box: NodeBox
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .object = box.node {} else { box.node = .object([]) }
        return KeyedDecodingContainer(DerivingKeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = NodeBox()
        box.node = .array(element)
        return DerivingUnkeyedContainer(element: element, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        DerivingSingleValueContainer(box: box, codingPath: codingPath)
    }
}

struct DerivingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let box: NodeBox
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try record(T.self, key, optional: false)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try record(T.self, key, optional: true)
    }

    // The standard library's defaults for these go through `decodeNil`, which would hide that they are optional.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try record(type, key, optional: true) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try record(type, key, optional: true) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let child = NodeBox()
        child.node = .object([])
        add(key, child, optional: false)
        return KeyedDecodingContainer(DerivingKeyedContainer<NestedKey>(box: child, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let child = NodeBox()
        let element = NodeBox()
        child.node = .array(element)
        add(key, child, optional: false)
        return DerivingUnkeyedContainer(element: element, codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { DerivingDecoder(box: box, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        let child = NodeBox()
        add(key, child, optional: false)
        return DerivingDecoder(box: child, codingPath: codingPath + [key])
    }

    private func record<T: Decodable>(_ type: T.Type, _ key: Key, optional: Bool) throws -> T {
        let child = NodeBox()
        let value = try child.derive(T.self, path: codingPath + [key])
        add(key, child, optional: optional)
        return value
    }

    /// Appends (or, decoded twice, replaces) a property; the box is read when the schema is rendered.
    private func add(_ key: Key, _ child: NodeBox, optional: Bool) {
        guard case .object(var properties) = box.node else { return }
        properties.removeAll { $0.name == key.stringValue }
        properties.append((key.stringValue, child, optional))
        box.node = .object(properties)
    }
}

struct DerivingUnkeyedContainer: UnkeyedDecodingContainer {
    /// The array's element position; one placeholder element is decoded into it.
    let element: NodeBox
    let codingPath: [any CodingKey]
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex > 0 }
    var currentIndex = 0

    init(element: NodeBox, codingPath: [any CodingKey]) {
        self.element = element
        self.codingPath = codingPath
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try element.derive(T.self, path: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        currentIndex += 1
        element.node = .object([])
        return KeyedDecodingContainer(DerivingKeyedContainer<NestedKey>(box: element, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        let inner = NodeBox()
        element.node = .array(inner)
        return DerivingUnkeyedContainer(element: inner, codingPath: codingPath)
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return DerivingDecoder(box: element, codingPath: codingPath)
    }
}

struct DerivingSingleValueContainer: SingleValueDecodingContainer {
    let box: NodeBox
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try box.derive(T.self, path: codingPath)
    }
}
