/// A structured answer while it is being generated: every property of `T` optional, usable from the first snapshot,
/// the way Apple's `@Generable` types offer `PartiallyGenerated`.
///
/// Read properties as on `T` (`partial.name`, `partial.address.city`, `partial.landmarks`): a property is nil until
/// its value has arrived whole; a nested ``StructuredOutput`` reads as a `PartialValue` of its own, and an array as
/// the elements that have arrived so far. Properties whose types are `Equatable` or ``StructuredOutput`` can be read.
///
/// How: the JSON so far is laid over two placeholder instances derived from `T`'s schema that differ in every
/// leaf, and decoded both ways; a property equal in both came from the answer, one that differs is still missing.
/// The same schema the models receive decides the placeholders, so no macro or hand-written partial type is needed.
@dynamicMemberLookup
public struct PartialValue<T: StructuredOutput>: Sendable {
    private let low: T?
    private let high: T?

    /// The two placeholder instances of `T`'s schema; a stream derives them once, not once per snapshot.
    package struct Placeholders: Sendable {
        let low: JSONValue
        let high: JSONValue

        /// Derived from `T.schema`; a type without one has none, so every property reads nil (its requests fail
        /// with the schema's error before any answer arrives).
        init() {
            self.init(schema: (try? T.schema) ?? [:])
        }

        /// Derived from `schema`, the type's schema already derived.
        package init(schema: JSONValue) {
            low = PartialValue.placeholder(schema, high: false)
            high = PartialValue.placeholder(schema, high: true)
        }
    }

    /// The partial value of `json` (an answer's complete part so far).
    init(json: JSONValue) {
        self.init(json: json, placeholders: Placeholders())
    }

    /// The partial value of `json` over placeholders already derived.
    package init(json: JSONValue, placeholders: Placeholders) {
        low = try? JSONValueDecoder().decode(T.self, from: Self.overlay(json, on: placeholders.low))
        high = try? JSONValueDecoder().decode(T.self, from: Self.overlay(json, on: placeholders.high))
    }

    private init(low: T?, high: T?) {
        self.low = low
        self.high = high
    }

    /// A property whose value has arrived, or nil.
    @_disfavoredOverload
    public subscript<V: Equatable>(dynamicMember keyPath: KeyPath<T, V>) -> V? {
        guard let low, let high else { return nil }
        let value = low[keyPath: keyPath]
        return value == high[keyPath: keyPath] ? value : nil
    }

    /// A nested structured property, itself partial.
    public subscript<V: StructuredOutput>(dynamicMember keyPath: KeyPath<T, V>) -> PartialValue<V> {
        PartialValue<V>(low: low?[keyPath: keyPath], high: high?[keyPath: keyPath])
    }

    /// `json` laid over `base`: objects merged member by member, anything else taken from `json`.
    static func overlay(_ json: JSONValue, on base: JSONValue) -> JSONValue {
        guard case .object(let members) = json, case .object(var merged) = base else { return json }
        for (key, value) in members { merged[key] = overlay(value, on: merged[key] ?? .null) }
        return .object(merged)
    }

    /// An instance of `schema` (the subset `SchemaDerivation` writes) whose every leaf differs between the low
    /// and the high flavour: "" and "\u{1}", 0 and 1, false and true, an enum's first and last case, an empty
    /// array and one of one element; null for a property that may be null.
    static func placeholder(_ schema: JSONValue, high: Bool) -> JSONValue {
        guard case .object(let members) = schema else { return .null }
        if case .array(let cases)? = members["enum"], let first = cases.first, let last = cases.last {
            return high ? last : first
        }
        if case .array(let options)? = members["anyOf"] {
            return options.first.map { placeholder($0, high: high) } ?? .null
        }
        let type: String? = switch members["type"] {
        case .string(let name)?: name
        case .array(let names)?: names.lazy.compactMap(\.stringValue).first { $0 != "null" }
        default: nil
        }
        switch type {
        case "object":
            var object: [String: JSONValue] = [:]
            if case .object(let properties)? = members["properties"] {
                for (name, property) in properties { object[name] = placeholder(property, high: high) }
            }
            return .object(object)
        case "array": return .array(high ? [placeholder(members["items"] ?? [:], high: high)] : [])
        case "string": return .string(high ? "\u{1}" : "")
        case "integer", "number": return .int(high ? 1 : 0)
        case "boolean": return .bool(high)
        default: return .null
        }
    }
}
