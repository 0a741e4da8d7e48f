import Foundation
import HybridTestSupport
import Testing

/// docs/config-reference.md is written by hand, so a key added to `prompts/hybrid-config.schema.json` (and to the
/// config types) could ship undocumented. This fails until every property the schema defines, at any depth, appears
/// in the reference as "`key`".
@Suite("Config reference doc")
struct ConfigReferenceDocTests {
    @Test func everySchemaPropertyIsDocumented() throws {
        let root = ProjectRoot.url
        let schemaData = try Data(contentsOf: root.appendingPathComponent("prompts/hybrid-config.schema.json"))
        let schema = try JSONSerialization.jsonObject(with: schemaData)
        let reference = try String(contentsOf: root.appendingPathComponent("docs/config-reference.md"), encoding: .utf8)

        var keys = Set<String>()
        Self.collectPropertyNames(in: schema, into: &keys)
        // Guards the walk itself: a schema read wrongly would find nothing, and nothing would be missing.
        #expect(keys.count > 20, "only \(keys.sorted()) found in the schema")
        let missing = keys.filter { !reference.contains("`\($0)`") }.sorted()
        #expect(missing.isEmpty, "docs/config-reference.md does not document: \(missing.joined(separator: ", "))")
    }

    /// Adds the names under every `properties` object, following each place a subschema can sit.
    private static func collectPropertyNames(in node: Any, into keys: inout Set<String>) {
        if let array = node as? [Any] {
            for element in array { collectPropertyNames(in: element, into: &keys) }
            return
        }
        guard let object = node as? [String: Any] else { return }
        if let properties = object["properties"] as? [String: Any] {
            for (name, subschema) in properties {
                keys.insert(name)
                collectPropertyNames(in: subschema, into: &keys)
            }
        }
        for keyword in ["$defs", "definitions"] {
            if let definitions = object[keyword] as? [String: Any] {
                for subschema in definitions.values { collectPropertyNames(in: subschema, into: &keys) }
            }
        }
        for keyword in ["items", "additionalProperties", "oneOf", "anyOf", "allOf"] {
            if let subschema = object[keyword] { collectPropertyNames(in: subschema, into: &keys) }
        }
    }
}
