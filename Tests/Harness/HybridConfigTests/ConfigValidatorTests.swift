import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import Testing

@Suite("Config validation")
struct ConfigValidatorTests {
    @Test func bundledDefaultsAreValidWithoutWarnings() throws {
        let validated = try ConfigValidator.load(HybridConfigDocument.bundledDefaultsJSON, promptFiles: .bundled)
        #expect(validated.warnings.isEmpty)
        #expect(validated.document.features["summarize"]?.variants["concise"]?.template?.contains("{{input}}") == true)
        #expect(validated.document.features["summarize"]?.variants["concise"]?.templateFile == nil)
        #expect(validated.templateFiles["features.summarize.variants.concise"] == "summarize/concise.txt")
    }

    @Test func notJSONIsReportedAsSuch() {
        #expect(throws: ConfigError.self) { try ConfigValidator.load(Data("{\"version\": 1".utf8)) }
        do {
            _ = try ConfigValidator.load(Data("{\"version\": 1".utf8))
        } catch {
            guard error.kind == .notJSON, let detail = error.detail else {
                Issue.record("expected notJSON, got \(error)")
                return
            }
            #expect(!detail.isEmpty)
        }
    }

    @Test func rootMustBeAnObject() {
        #expect(Fixtures.errors(Data("[1, 2]".utf8)).map(\.path) == ["$"])
    }

    @Test func wrongTypeNamesThePath() throws {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["features", "summarize", "deadlineMs"], "soon") })
        let issue = try #require(issues.first)
        #expect(issue.path == "features.summarize.deadlineMs")
        #expect(issue.message.contains("expected an integer"))
    }

    @Test func wrongTypeInsideAnArrayNamesTheIndex() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["features", "summarize", "priority", 1], 5) })
        #expect(issues.map(\.path) == ["features.summarize.priority[1]"])
    }

    @Test("a misspelt required key is named: `priorty` is reported as the near miss of the missing `priority`")
    func misspeltRequiredKeyIsNamed() throws {
        let issues = Fixtures.errors(Fixtures.config {
            $0.set(["features", "summarize", "priority"], nil)
            $0.set(["features", "summarize", "priorty"], ["local-smollm2"])
        })
        let issue = try #require(issues.first { $0.path == "features.summarize.priority" }, "\(issues)")
        #expect(issue.message.contains("\"priorty\"") && issue.message.contains("misspelling"), "\(issue.message)")
    }

    @Test("a budget over a hosted model without prices is refused at its JSON path, in a feature and in an override")
    func budgetOverAnUnpricedModelIsRefused() {
        let unpriced = Fixtures.errors(Fixtures.config {
            $0.set(["models", "openai-gpt-4o-mini", "pricing"], nil)
            $0.set(["features", "summarize", "priority"], ["openai-gpt-4o-mini"])
            $0.set(["features", "summarize", "monthlyBudgetUSD"], 5)
        })
        #expect(unpriced.contains { $0.path == "features.summarize.monthlyBudgetUSD" && $0.message.contains("\"openai-gpt-4o-mini\"") }, "\(unpriced)")

        let overridden = Fixtures.errors(Fixtures.config {
            $0.set(["models", "openai-gpt-4o-mini", "pricing"], nil)
            $0.set(["conditions"], [["name": "older-phones", "labels": ["deviceClass": ["equals": "phone-2019"]]]])
            $0.set(["features", "summarize", "overrides"], ["older-phones": ["priority": ["openai-gpt-4o-mini"], "monthlyBudgetUSD": 5]])
        })
        #expect(overridden.contains { $0.path == "features.summarize.overrides.older-phones.monthlyBudgetUSD" && $0.message.contains("price is unknown") }, "\(overridden)")
    }

    @Test func missingRequiredKey() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "local-smollm2", "contextWindow"], nil) })
        #expect(issues.map(\.path) == ["models.local-smollm2.contextWindow"])
        #expect(issues.first?.message == "missing required key")
    }

    @Test func typeErrorsInSeveralPartsAreAllReported() {
        let issues = Fixtures.errors(
            Fixtures.config {
                $0.set(["models", "gemini-flash", "contextWindow"], "big")
                $0.set(["features", "extract", "privacy"], "secret")
                $0.set(["version"], "one")
            })
        #expect(Set(issues.map(\.path)) == ["version", "models.gemini-flash.contextWindow", "features.extract.privacy"])
    }

    @Test func unknownProviderKind() throws {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "gemini-flash", "kind"], "bard") })
        let issue = try #require(issues.first)
        #expect(issue.path == "models.gemini-flash.kind")
        #expect(issue.message.contains("unknown provider kind \"bard\""))
        #expect(issue.message.contains("openai-compatible"))
    }

    @Test func priorityNamingMissingModel() throws {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["features", "summarize", "priority", 2], "gpt-5") })
        let issue = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(issue.path == "features.summarize.priority[2]")
        #expect(issue.message.contains("\"gpt-5\" is not defined in models"))
        #expect(ConfigError.invalid(issues).description.contains("features.summarize.priority[2]"))
    }

    @Test func templateReferencingUnknownVariable() throws {
        let issues = Fixtures.errors(
            Fixtures.config { $0.set(["features", "classify", "variants", "default"], ["template": "Label this: {{text}}"]) })
        let issue = try #require(issues.first)
        #expect(issue.path == "features.classify.variants.default.template")
        #expect(issue.message.contains("unknown variable \"text\""))
    }

    @Test func templateFileReferencingUnknownVariable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("classify"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("Text: {{message}}".utf8).write(to: dir.appendingPathComponent("classify/default.txt"))
        let issues = Fixtures.errors(
            Fixtures.config { $0.set(["features", "classify", "variants", "default"], ["templateFile": "classify/default.txt"]) },
            promptFiles: PromptFileResolver(directories: [dir]))
        #expect(issues.map(\.path) == ["features.classify.variants.default.templateFile"])
        #expect(issues.first?.message.contains("in classify/default.txt") == true)
    }

    @Test func missingOrEscapingTemplateFile() {
        let missing = Fixtures.errors(Fixtures.config { $0.set(["features", "classify", "variants", "default"], ["templateFile": "classify/nope.txt"]) })
        #expect(missing.map(\.path) == ["features.classify.variants.default.templateFile"])
        let escaping = Fixtures.errors(Fixtures.config { $0.set(["features", "classify", "variants", "default"], ["templateFile": "../etc/passwd"]) })
        #expect(escaping.first?.message.contains("without '..'") == true)
    }

    @Test func unsupportedSchemaKeyword() throws {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["features", "extract", "outputSchema", "properties", "email", "unevaluatedItems"], false) })
        let issue = try #require(issues.first)
        #expect(issue.path == "features.extract.outputSchema.properties.email.unevaluatedItems")
        #expect(issue.message.contains("'unevaluatedItems' is not supported"))
    }

    @Test func constraintDefinitionErrorsCarryTheirPath() throws {
        let issues = Fixtures.errors(
            Fixtures.config {
                $0.set(["features", "summarize", "constraints", "minWords"], 100)
                $0.set(["features", "summarize", "constraints", "maxWords"], 10)
            })
        let issue = try #require(issues.first)
        #expect(issue.path.hasPrefix("features.summarize.constraints."))
    }

    @Test func everySemanticIssueIsCollected() {
        let issues = Fixtures.errors(
            Fixtures.config {
                $0.set(["features", "summarize", "priority", 2], "gpt-5")
                $0.set(["features", "classify", "privacy"], "sensitive")
                $0.set(["features", "extract", "defaultVariant"], "missing")
                $0.set(["rollouts", "summarize", "arms", 0, "variant"], "tabular")
            })
        #expect(
            Set(issues.map(\.path)) == [
                "features.summarize.priority[2]",
                // classify lists gemini-flash then openai-gpt-4o-mini after the local model: both third-party.
                "features.classify.priority[1]", "features.classify.priority[2]",
                "features.extract.defaultVariant",
                "rollouts.summarize.arms[0].variant",
            ])
        #expect(issues.first { $0.path == "features.classify.priority[1]" }?.message.contains("allows at most on-device") == true)
    }

    @Test func apiKeyPastedInsteadOfNameIsRejectedWithoutEchoingIt() throws {
        let secret = "sk-proj-abcdef0123456789"
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "openai-gpt-4o-mini", "apiKeyEnv"], .string(secret)) })
        let issue = try #require(issues.first)
        #expect(issue.path == "models.openai-gpt-4o-mini.apiKeyEnv")
        #expect(!issue.message.contains(secret))
        #expect(!ConfigError.invalid(issues).description.contains(secret))
    }

    @Test func thirdPartyEndpointMustBeHTTPS() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["models", "openai-gpt-4o-mini", "baseURL"], "http://api.openai.com/v1") })
        #expect(issues.map(\.path) == ["models.openai-gpt-4o-mini.baseURL"])
    }

    @Test func rolloutPercentagesMustNotExceed100() {
        let issues = Fixtures.errors(
            Fixtures.config {
                $0.set(["rollouts", "summarize", "arms"], [
                    ["name": "a", "percentage": 60, "variant": "bullet"],
                    ["name": "b", "percentage": 50, "priority": ["local-smollm2"]],
                ])
            })
        #expect(issues.map(\.path) == ["rollouts.summarize.arms"])
    }

    @Test("a rollout plan that cannot run is refused with the path of every problem")
    func rolloutPlansAreValidated() throws {
        let issues = Fixtures.errors(
            Fixtures.config {
                $0.set(["rollouts", "summarize", "arms", 0, "percentage"], 7)
                $0.set(["rollouts", "summarize", "plan"], [
                    "arm": "bulet", "stages": [1, 5, 5, 120, 50], "minStageHours": -1, "minInstallsPerArm": 0,
                    "guardrails": [["metric": "errorRate", "tolerance": -0.1], ["metric": "errorRate"]],
                ])
            })
        #expect(Set(issues.map(\.path)) == [
            "rollouts.summarize.plan.arm", "rollouts.summarize.plan.stages[2]", "rollouts.summarize.plan.stages[3]", "rollouts.summarize.plan.stages[4]",
            "rollouts.summarize.plan.stages", "rollouts.summarize.plan.minStageHours", "rollouts.summarize.plan.minInstallsPerArm",
            "rollouts.summarize.plan.guardrails[0].tolerance", "rollouts.summarize.plan.guardrails[1].metric",
        ], "\(issues)")
        #expect(issues.first { $0.path == "rollouts.summarize.plan.arm" }?.message.contains("bullet") == true, "the arms it has")
        let unknownMetric = Fixtures.errors(Fixtures.config {
            $0.set(["rollouts", "summarize", "plan"], ["stages": [100], "guardrails": [["metric": "p95"]]])
        })
        #expect(unknownMetric.map(\.path) == ["rollouts.summarize.plan.guardrails[0].metric"], "\(unknownMetric)")
        let valid = try ConfigValidator.load(Fixtures.config {
            $0.set(["rollouts", "summarize", "arms", 0, "percentage"], 0)
            $0.set(["rollouts", "summarize", "plan"], ["stages": [1, 5, 25, 50, 100]])
        }).document.rollouts["summarize"]?.plan
        #expect(valid == RolloutPlan(), "defaults fill what a plan leaves out")
    }

    @Test("an apple-foundation-models name other than system or content-tagging is a warning naming the member")
    func appleSystemModelNames() throws {
        func warnings(_ name: String) throws -> [String] {
            try ConfigValidator.load(Fixtures.config {
                $0.set(["models", "apple"], [
                    "kind": "apple-foundation-models", "model": .string(name), "tier": "on-device", "contextWindow": 4096,
                    "pricing": ["inputPerMillion": 0, "outputPerMillion": 0],
                    "capabilities": ["structuredOutput": true, "streaming": true],
                ])
            }).warnings.map(\.path)
        }
        #expect(try warnings("system").isEmpty && warnings("content-tagging").isEmpty)
        #expect(try warnings("content-taging") == ["models.apple.model"])
    }

    @Test func unknownKeysAreWarningsNotErrors() throws {
        let validated = try ConfigValidator.load(Fixtures.config { $0.set(["features", "summarize", "priorty"], ["x"]) })
        #expect(validated.warnings.map(\.path) == ["features.summarize.priorty"])
        #expect(validated.warnings.first?.severity == .warning)
    }

    @Test func modelIdsWithDotsArePrintedQuoted() {
        var path = ConfigPath.root.key("models").key("gpt-4.1").key("tier")
        #expect(path.description == "models[\"gpt-4.1\"].tier")
        path = ConfigPath.root.key("features").key("summarize").key("priority").index(2)
        #expect(path.description == "features.summarize.priority[2]")
    }
}
