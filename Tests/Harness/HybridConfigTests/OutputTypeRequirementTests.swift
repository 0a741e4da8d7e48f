import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import Testing

/// A fetched config may change prompts and models, but not loosen the output an app decodes into its own type.
@Suite("Output types a config must keep")
struct OutputTypeRequirementTests {
    struct Contact: StructuredOutput {
        var name: String
        var company: String
        var email: String?
        var topics: [String]
    }

    static func payload(_ edit: (inout HybridConfigDocument) -> Void) throws -> ConfigFetcher.FetchedPayload {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.version += 1
        edit(&document)
        return ConfigFetcher.FetchedPayload(
            url: "https://config.example.com/hybrid.json", status: 200, body: try JSONEncoder().encode(document),
            etag: nil, signature: nil)
    }

    @Test func aCompatibleSchemaIsAcceptedALooserOneKeepsTheConfigInForce() async throws {
        let loader = try ConfigLoader.withBundledDefaults(sourceURL: nil, fetcher: nil)
        await loader.requireOutput(Contact.self, forFeature: "extract")
        let fine = await loader.offer(try Self.payload { _ in })
        #expect(fine.outcome == .updated, "\(String(describing: fine.reasonNewOneRejected))")
        let version = fine.config.version

        let loosened = await loader.offer(try Self.payload { document in
            document.version = version + 1
            var schema = document.features["extract"]?.outputSchema?.source.objectValue ?? [:]
            schema["required"] = ["name", "topics"]
            document.features["extract"]?.outputSchema = try? JSONSchema(.object(schema))
        })
        #expect(loosened.outcome == .rejected && loosened.config.version == version)
        let issue = try #require(loosened.reasonNewOneRejected?.issues.first)
        #expect(issue.path == "features.extract.outputSchema")
        #expect(issue.message.contains("breaks the app's Contact: properties.company is not required"))
    }

    @Test func compatibilityNamesEachPath() throws {
        let type = try Contact.schema
        #expect(SchemaCompatibility.problems(config: type, type: type).isEmpty)
        let config: JSONValue = [
            "type": "object", "required": ["name", "company", "topics"],
            "properties": ["name": ["type": "string"], "company": ["type": ["string", "null"]],
                           "topics": ["type": "array", "items": ["type": "integer"]]],
        ]
        #expect(SchemaCompatibility.problems(config: config, type: type) == [
            "properties.company admits null; the app decodes only string",
            "properties.topics.items admits integer; the app decodes only string",
        ])
    }
}
