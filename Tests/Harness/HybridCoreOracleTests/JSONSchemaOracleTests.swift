import Foundation
import HybridCore
import HybridReport
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// Generated schemas and instances, judged by ``JSONSchema`` and by Python's `jsonschema` (Draft 2020-12): the
/// verdicts must be identical. The generator stays inside standard 2020-12 (no dialect additions, no `format`,
/// whose assertion `jsonschema` leaves off by default) and avoids what `jsonschema` itself gets wrong (`multipleOf`
/// with decimal divisors, answered in binary floating point), which the unit tests cover instead.
@Suite("JSON Schema against Python jsonschema")
struct JSONSchemaOracleTests {
    @Test("identical verdicts on 600 seeded (schema, instance) pairs")
    func sameVerdictsAsJSONSchemaPython() async throws {
        var generator = SchemaCaseGenerator(seed: 0x5EED_12B)
        var cases: [(schema: JSONValue, instance: JSONValue)] = []
        for _ in 0..<300 {
            let schema = generator.rootSchema()
            cases.append((schema, generator.instance(for: schema, root: schema)))
            cases.append((schema, generator.instance(for: schema, root: schema)))
        }
        let expected = try await JSONSchemaOracle.verdicts(cases)
        var validCount = 0
        for (c, verdict) in zip(cases, expected) {
            let schema: JSONSchema
            do {
                schema = try JSONSchema(c.schema)
            } catch {
                Issue.record("rejected a generated schema: \(error)\n\(c.schema)")
                continue
            }
            let ours = schema.isValid(c.instance)
            if ours { validCount += 1 }
            #expect(verdict == (ours ? .valid : .invalid), "schema \(c.schema)\ninstance \(c.instance)\n\(schema.validate(c.instance))")
        }
        // Both verdicts must be common, or agreement would prove little.
        #expect(validCount > cases.count / 5 && validCount < cases.count * 4 / 5, "\(validCount) of \(cases.count) valid")
    }
}

/// Random schemas over small pools of keys, strings and numbers, so keywords and instances often meet.
struct SchemaCaseGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let keys = ["a", "b", "c", "\u{E9}"]
    static let strings: [JSONValue] = ["", "a", "ab", "abc", "b", "ba", "\u{E9}", "e\u{301}", "\u{1F600}x", "12", "aaaa"]
    static let numbers: [JSONValue] = [0, 1, -1, 2, 3, 7, 10, 0.5, 2.5, 3.0, -0.25, 100, 1e20, 9007199254740993]
    static let patterns = ["^a", "b$", "^[a-c]*$", "[0-9]", "^.{2,3}$", "\u{E9}"]
    static let divisors: [JSONValue] = [1, 2, 3, 0.5, 0.25]
    static let types = ["null", "boolean", "integer", "number", "string", "array", "object"]

    mutating func chance(_ p: Double) -> Bool { Double(random.next() % 10_000) / 10_000 < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + random.nextIndex(below: range.count) }
    mutating func pick<T>(_ options: [T]) -> T { options[random.nextIndex(below: options.count)] }

    mutating func subset(_ options: [String], max: Int) -> [String] {
        var chosen: [String] = []
        for _ in 0..<int(1...max) {
            let option = pick(options)
            if !chosen.contains(option) { chosen.append(option) }
        }
        return chosen
    }

    mutating func scalar() -> JSONValue {
        switch int(0...4) {
        case 0: .null
        case 1: .bool(chance(0.5))
        case 2, 3: pick(Self.strings)
        default: pick(Self.numbers)
        }
    }

    /// Any JSON value, from the pools.
    mutating func value(depth: Int) -> JSONValue {
        guard depth < 3, chance(0.4) else { return scalar() }
        if chance(0.5) { return .array((0..<int(0...3)).map { _ in value(depth: depth + 1) }) }
        var members: [String: JSONValue] = [:]
        for key in subset(Self.keys, max: 3) { members[key] = value(depth: depth + 1) }
        return .object(members)
    }

    /// A root schema, sometimes with `$defs` (or draft-07 `definitions`) that nested schemas refer to by JSON
    /// Pointer or by `$anchor`.
    mutating func rootSchema() -> JSONValue {
        guard chance(0.3) else { return schema(depth: 0, definitions: [], allowRootReference: true) }
        let container = chance(0.7) ? "$defs" : "definitions"
        let anchored = chance(0.5)
        var references = ["#/\(container)/d0", "#/\(container)/d1"]
        if anchored { references.append("#d1-anchor") }
        guard case .object(var members) = schema(depth: 0, definitions: references, allowRootReference: true) else {
            return schema(depth: 0, definitions: [], allowRootReference: true)
        }
        var d1 = schema(depth: 1, definitions: [], allowRootReference: false)
        if anchored {
            var d1Members = d1.objectValue ?? ["allOf": [d1]]
            d1Members["$anchor"] = "d1-anchor"
            d1 = .object(d1Members)
        }
        members[container] = ["d0": schema(depth: 2, definitions: [], allowRootReference: false), "d1": d1]
        return .object(members)
    }

    /// A schema of a few keyword groups; `#` references appear only where they descend into the instance.
    mutating func schema(depth: Int, definitions: [String], allowRootReference: Bool) -> JSONValue {
        if chance(0.08) { return .bool(chance(0.7)) }
        var m: [String: JSONValue] = [:]
        var used = Set<Int>()
        let groups = depth >= 3 ? 1 : int(1...3)
        for _ in 0..<groups {
            addGroup(to: &m, used: &used, depth: depth, definitions: definitions, allowRootReference: allowRootReference)
        }
        return .object(m)
    }

    /// A subschema in a descending position (under `properties`, `items`…), where `{"$ref": "#"}` terminates.
    mutating func child(_ depth: Int, _ definitions: [String], _ allowRootReference: Bool) -> JSONValue {
        if allowRootReference, depth >= 1, chance(0.1) { return ["$ref": "#"] }
        return schema(depth: depth + 1, definitions: definitions, allowRootReference: allowRootReference)
    }

    /// Adds one keyword group not `used` yet, so paired limits (`minLength` ≤ `maxLength`) stay consistent.
    mutating func addGroup(
        to m: inout [String: JSONValue], used: inout Set<Int>, depth: Int, definitions: [String], allowRootReference: Bool
    ) {
        let sub = { (g: inout SchemaCaseGenerator) in g.child(depth, definitions, allowRootReference) }
        let group = int(0...9)
        guard used.insert(group == 6 ? 5 : group).inserted else { return }
        switch group {
        case 0:
            m["type"] = chance(0.7) ? .string(pick(Self.types)) : .array(subset(Self.types, max: 3).map { .string($0) })
        case 1:
            if chance(0.5) {
                m["enum"] = .array((0..<int(1...3)).map { _ in value(depth: 1) })
            } else {
                m["const"] = value(depth: 1)
            }
        case 2:
            addNumberKeywords(to: &m)
        case 3:
            let low = int(0...2)
            if chance(0.5) { m["minLength"] = .int(low) }
            if chance(0.5) { m["maxLength"] = .int(low + int(0...2)) }
            if chance(0.5) { m["pattern"] = .string(pick(Self.patterns)) }
        case 4:
            addArrayKeywords(to: &m, sub: sub)
        case 5, 6:
            addObjectKeywords(to: &m, sub: sub)
        case 7 where depth < 3:
            let key = pick(["allOf", "anyOf", "oneOf"])
            m[key] = .array((0..<int(1...3)).map { _ in schema(depth: depth + 1, definitions: definitions, allowRootReference: false) })
        case 8 where depth < 3:
            let inner = { (g: inout SchemaCaseGenerator) in g.schema(depth: depth + 1, definitions: definitions, allowRootReference: false) }
            if chance(0.4) {
                m["not"] = inner(&self)
            } else {
                m["if"] = inner(&self)
                if chance(0.8) { m["then"] = inner(&self) }
                if chance(0.6) { m["else"] = inner(&self) }
            }
        case 9 where !definitions.isEmpty:
            m["$ref"] = .string(pick(definitions))
        default:
            m["type"] = .string(pick(Self.types))
        }
    }

    mutating func addNumberKeywords(to m: inout [String: JSONValue]) {
        let low = pick(Self.numbers.filter { ($0.doubleValue ?? 0) < 50 })
        if chance(0.5) { m[chance(0.5) ? "minimum" : "exclusiveMinimum"] = low }
        if chance(0.5) {
            let high = (low.doubleValue ?? 0) + Double(int(0...8))
            m[chance(0.5) ? "maximum" : "exclusiveMaximum"] = .double(high)
        }
        if chance(0.5) { m["multipleOf"] = pick(Self.divisors) }
    }

    mutating func addArrayKeywords(to m: inout [String: JSONValue], sub: (inout SchemaCaseGenerator) -> JSONValue) {
        if chance(0.6) { m["items"] = sub(&self) }
        if chance(0.3) { m["prefixItems"] = .array((0..<int(1...2)).map { _ in sub(&self) }) }
        let low = int(0...2)
        if chance(0.4) { m["minItems"] = .int(low) }
        if chance(0.4) { m["maxItems"] = .int(low + int(0...2)) }
        if chance(0.3) { m["uniqueItems"] = .bool(chance(0.8)) }
        if chance(0.3) {
            m["contains"] = sub(&self)
            let least = int(0...2)
            if chance(0.4) { m["minContains"] = .int(least) }
            if chance(0.4) { m["maxContains"] = .int(least + int(0...1)) }
        }
    }

    mutating func addObjectKeywords(to m: inout [String: JSONValue], sub: (inout SchemaCaseGenerator) -> JSONValue) {
        if chance(0.7) {
            var properties: [String: JSONValue] = [:]
            for key in subset(Self.keys, max: 2) { properties[key] = sub(&self) }
            m["properties"] = .object(properties)
        }
        if chance(0.5) { m["required"] = .array(subset(Self.keys, max: 2).map { .string($0) }) }
        if chance(0.3) { m["additionalProperties"] = chance(0.5) ? .bool(false) : sub(&self) }
        if chance(0.2) { m["patternProperties"] = .object([pick(["^a", "b", "^[ab]$"]): sub(&self)]) }
        if chance(0.15) { m["propertyNames"] = chance(0.5) ? ["maxLength": 1] : ["pattern": "^[ab]"] }
        let low = int(0...2)
        if chance(0.2) { m["minProperties"] = .int(low) }
        if chance(0.2) { m["maxProperties"] = .int(low + int(0...2)) }
        if chance(0.2) {
            let trigger = pick(Self.keys)
            m["dependentRequired"] = .object([trigger: .array(subset(Self.keys, max: 2).map { .string($0) })])
        }
        if chance(0.15) {
            let trigger = pick(Self.keys)
            m["dependentSchemas"] = .object([trigger: sub(&self)])
        }
    }

    /// An instance that often satisfies `schema` (so both verdicts are common): it follows `const`, `enum`, `type`,
    /// `properties`, `items` and the size limits most of the time, and ignores them some of the time.
    mutating func instance(for schema: JSONValue, root: JSONValue, depth: Int = 0) -> JSONValue {
        guard depth < 4, !chance(0.15), case .object(let m) = schema else { return value(depth: max(depth, 1)) }
        if let c = m["const"], chance(0.8) { return c }
        if case .array(let options)? = m["enum"], chance(0.8) { return pick(options) }
        if case .string(let ref)? = m["$ref"], chance(0.7), let target = Self.resolve(ref, in: root) {
            return instance(for: target, root: root, depth: depth + 1)
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            if case .array(let branches)? = m[key], chance(0.5) {
                return instance(for: pick(branches), root: root, depth: depth + 1)
            }
        }
        switch typeToGenerate(m) {
        case "object": return object(for: m, root: root, depth: depth)
        case "array": return array(for: m, root: root, depth: depth)
        case "string":
            let length = int((m["minLength"]?.intValue ?? 0)...(m["maxLength"]?.intValue ?? 3))
            return chance(0.5) ? pick(Self.strings) : .string(String(repeating: pick(["a", "b", "\u{E9}"]), count: length))
        case "integer": return .int(int(-1...8))
        case "number": return pick(Self.numbers)
        case "boolean": return .bool(chance(0.5))
        case "null": return .null
        default: return value(depth: depth)
        }
    }

    /// The subschema a generated `$ref` names: `#`, `#/<container>/<name>` or the one anchor.
    static func resolve(_ ref: String, in root: JSONValue) -> JSONValue? {
        if ref == "#" { return root }
        if ref == "#d1-anchor" { return root["$defs"]?["d1"] ?? root["definitions"]?["d1"] }
        let tokens = ref.dropFirst(2).split(separator: "/").map(String.init)
        guard tokens.count == 2 else { return nil }
        return root[tokens[0]]?[tokens[1]]
    }

    mutating func typeToGenerate(_ m: [String: JSONValue]) -> String? {
        switch m["type"] {
        case .string(let name)?: return name
        case .array(let names)?: return pick(names).stringValue
        default: break
        }
        if m["properties"] != nil || m["required"] != nil { return "object" }
        if m["items"] != nil || m["prefixItems"] != nil || m["contains"] != nil { return "array" }
        if m["minLength"] != nil || m["pattern"] != nil { return "string" }
        if m["minimum"] != nil || m["multipleOf"] != nil { return "number" }
        return nil
    }

    mutating func object(for m: [String: JSONValue], root: JSONValue, depth: Int) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if case .object(let properties)? = m["properties"] {
            for (key, sub) in properties.sorted(by: { $0.key < $1.key }) where chance(0.8) {
                members[key] = instance(for: sub, root: root, depth: depth + 1)
            }
        }
        if case .array(let required)? = m["required"] {
            for case .string(let key) in required where members[key] == nil && chance(0.8) {
                members[key] = value(depth: depth + 1)
            }
        }
        if chance(0.3) { members[pick(Self.keys)] = value(depth: depth + 1) }
        return .object(members)
    }

    mutating func array(for m: [String: JSONValue], root: JSONValue, depth: Int) -> JSONValue {
        let low = m["minItems"]?.intValue ?? 0
        let count = int(low...max(low, min(m["maxItems"]?.intValue ?? 3, 4)))
        let prefix = m["prefixItems"]?.arrayValue ?? []
        return .array((0..<count).map { i in
            if i < prefix.count { return instance(for: prefix[i], root: root, depth: depth + 1) }
            if let items = m["items"] { return instance(for: items, root: root, depth: depth + 1) }
            return value(depth: depth + 1)
        })
    }
}

/// The project's own config schema uses `propertyNames`, `minProperties`, `uniqueItems`, `oneOf` and `format`; the
/// bundled config must pass it here exactly as it passes Python's `jsonschema` (with formats asserted there too).
@Suite("JSON Schema on the project's config schema")
struct ConfigSchemaSelfCheckTests {
    @Test func bundledConfigConformsToItsSchema() async throws {
        let prompts = ProjectRoot.appending("prompts")
        let schemaText = try String(contentsOf: prompts.appendingPathComponent("hybrid-config.schema.json"), encoding: .utf8)
        let configText = try String(contentsOf: prompts.appendingPathComponent("hybrid.config.json"), encoding: .utf8)
        let schema = try JSONSchema(JSONValue(parsing: schemaText))
        let config = try JSONValue(parsing: configText)
        #expect(schema.validate(config) == [])
        let oracle = try await JSONSchemaOracle.verdicts([(schema.source, config)])
        #expect(oracle == [.valid])
        // A model key outside propertyNames' pattern and a date that does not exist are both caught.
        guard case .object(var members) = config, case .object(var models)? = members["models"] else {
            Issue.record("the bundled config has no models object")
            return
        }
        models["bad key"] = models["local-smollm2"]
        members["models"] = .object(models)
        members["provenance"] = ["createdAt": "2025-02-30T00:00:00Z"]
        #expect(schema.validate(.object(members)).map(\.keyword) == ["propertyNames", "format"])
    }
}
