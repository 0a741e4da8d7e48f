import Foundation
import HybridCore

extension ConfigValidator {
    /// The semantic rules, run over a decoded document; collects every issue instead of stopping at the first.
    struct Checker {
        let document: HybridConfigDocument
        let promptFiles: PromptFileResolver
        var issues: [ConfigIssue] = []
        /// Variants whose `templateFile` was read, to be replaced by their text once checking is done.
        var inlinedTemplates: [InlinedTemplate] = []
        var templateFiles: [String: String] = [:]

        /// A variant with its template file's text in place of the file name.
        struct InlinedTemplate {
            var feature: String
            var variant: String
            var prompt: PromptVariant
        }

        init(document: HybridConfigDocument, promptFiles: PromptFileResolver) {
            self.document = document
            self.promptFiles = promptFiles
        }

        mutating func error(_ path: ConfigPath, _ message: String) {
            issues.append(ConfigIssue(path: path.description, message: message))
        }

        mutating func error(_ path: ConfigPath, relative: String, _ message: String) {
            issues.append(ConfigIssue(path: path.description + (relative.hasPrefix("[") ? relative : "." + relative), message: message))
        }

        mutating func warning(_ path: ConfigPath, _ message: String) {
            issues.append(ConfigIssue(path: path.description, message: message, severity: .warning))
        }

        /// A warning `hybrid config validate` and `publish` refuse unless told `--allow-unknown-keys`.
        mutating func publishingWarning(_ path: ConfigPath, _ message: String) {
            var issue = ConfigIssue(path: path.description, message: message, severity: .warning)
            issue.blocksPublishing = true
            issues.append(issue)
        }

        /// Every string of the payload, keys included: a credential anywhere would ship to every app. The message
        /// names the path and what the value looks like, never the value.
        mutating func scanSecrets(in tree: JSONValue?) {
            guard let tree else { return }
            for finding in SecretScanner.findings(in: tree) {
                issues.append(ConfigIssue(path: finding.path, message: Self.secretMessage(finding.kind)))
            }
        }

        static func secretMessage(_ kind: String) -> String {
            "looks like \(kind); configs are published to every app, so keep secrets in the environment and name the variable in apiKeyEnv (value not shown)"
        }

        mutating func run() {
            let root = ConfigPath.root
            if document.version < 0 { error(root.key("version"), "must be 0 or more, found \(document.version)") }
            if document.models.isEmpty { error(root.key("models"), "define at least one model") }
            for (id, model) in document.models.sorted(by: { $0.key < $1.key }) {
                checkModel(id, model, root.key("models").key(id))
            }
            if document.features.isEmpty { error(root.key("features"), "define at least one feature") }
            // Sorting the names, not (name, feature) pairs, spares a copy of every feature on each load.
            for name in document.features.keys.sorted() {
                guard let feature = document.features[name] else { continue }
                checkFeature(name, feature, root.key("features").key(name))
            }
            for (name, rollout) in document.rollouts.sorted(by: { $0.key < $1.key }) {
                checkRollout(name, rollout, root.key("rollouts").key(name))
            }
            if let routing = document.routing { checkRouting(routing, root.key("routing")) }
            checkConditions(root.key("conditions"))
        }

        // MARK: Models

        private mutating func checkModel(_ id: String, _ model: ModelConfig, _ path: ConfigPath) {
            if !Self.isModelID(id) {
                error(path, "model id \"\(id)\" must start with a letter or digit and use only letters, digits, '.', '_' and '-'")
            }
            if model.model.trimmingCharacters(in: .whitespaces).isEmpty { error(path.key("model"), "must not be empty") }
            switch (model.kind, model.tier) {
            case (.appleFoundationModels, let tier) where tier != .onDevice:
                error(path.key("tier"), "apple-foundation-models runs on-device; found \(tier.rawValue)")
            case (.applePrivateCloudCompute, let tier) where tier != .privateCloud:
                error(path.key("tier"), "apple-private-cloud-compute runs in Apple's private cloud; found \(tier.rawValue)")
            case (.anthropic, let tier) where tier != .thirdParty, (.gemini, let tier) where tier != .thirdParty:
                error(path.key("tier"), "\(model.kind.rawValue) is a third-party API; found \(tier.rawValue)")
            case (.llamaCpp, .thirdParty):
                error(path.key("tier"), "llama-cpp runs on-device or in a private cloud, not third-party")
            default:
                break
            }
            if model.kind == .appleFoundationModels, !["system", "content-tagging"].contains(model.model) {
                warning(path.key("model"), "apple-foundation-models knows \"system\" and \"content-tagging\"; \"\(model.model)\" gets the general system model")
            }
            let needsURL: Set<ProviderKind> = [.openAICompatible, .anthropic, .gemini, .ollama]
            if let baseURL = model.baseURL {
                checkBaseURL(baseURL, tier: model.tier, path.key("baseURL"))
            } else if needsURL.contains(model.kind) {
                error(path.key("baseURL"), "required for \(model.kind.rawValue) models")
            }
            if let env = model.apiKeyEnv {
                if !Self.isEnvironmentName(env) {
                    // Never echo the value: a key pasted here by mistake must not land in logs.
                    error(path.key("apiKeyEnv"), "must be the NAME of an environment variable (A-Z, 0-9, _), not a key")
                }
            } else if model.kind == .anthropic || model.kind == .gemini || (model.kind == .openAICompatible && model.tier == .thirdParty) {
                error(path.key("apiKeyEnv"), "required for \(model.kind.rawValue) models on tier \(model.tier.rawValue): name the environment variable holding the key")
            }
            checkPricing(model, path.key("pricing"))
            if model.contextWindow <= 0 { error(path.key("contextWindow"), "must be more than 0, found \(model.contextWindow)") }
            if model.maxTokensField != nil, ![.openAICompatible, .llamaCpp].contains(model.kind) {
                error(path.key("maxTokensField"), "only Chat Completions models (openai-compatible, llama-cpp) send it; \(model.kind.rawValue) does not")
            }
            if let limit = model.maxConcurrency, limit < 1 {
                error(path.key("maxConcurrency"), "must be at least 1, found \(limit)")
            }
            if let maxOut = model.maxOutputTokens {
                if maxOut <= 0 {
                    error(path.key("maxOutputTokens"), "must be more than 0, found \(maxOut)")
                } else if model.contextWindow > 0, maxOut > model.contextWindow {
                    error(path.key("maxOutputTokens"), "\(maxOut) exceeds the context window of \(model.contextWindow)")
                }
            }
        }

        private mutating func checkBaseURL(_ text: String, tier: ModelTier, _ path: ConfigPath) {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
                error(path, "not an absolute URL: \"\(SecretScanner.redact(text))\"")
                return
            }
            if url.user != nil || url.password != nil {
                error(path, "must not carry credentials; use apiKeyEnv")
            }
            switch scheme {
            case "https":
                break
            case "http" where tier != .thirdParty || ConfigFetcher.isLoopback(host: host):
                break
            case "http":
                error(path, "third-party endpoints must use https")
            default:
                error(path, "scheme \"\(scheme)\" not supported; use https (or http for loopback and private servers)")
            }
        }

        // MARK: Features

        private mutating func checkFeature(_ name: String, _ feature: FeatureConfig, _ path: ConfigPath) {
            if !PromptTemplate.isValidName(name) {
                error(path, "feature name \"\(name)\" must use letters, digits and _ (it becomes a Firebase parameter name)")
            }
            // A feature declares a handful of inputs: a scan of the earlier ones beats building a set per feature.
            var seenInputs: [String] = []
            seenInputs.reserveCapacity(feature.inputs.count)
            for (i, input) in feature.inputs.enumerated() {
                if !PromptTemplate.isValidName(input) { error(path.key("inputs").index(i), "\"\(input)\" is not a valid variable name") }
                if seenInputs.contains(input) {
                    error(path.key("inputs").index(i), "duplicate input \"\(input)\"")
                } else {
                    seenInputs.append(input)
                }
            }
            if let instructions = feature.instructions {
                checkTemplate(instructions, inputs: seenInputs, path.key("instructions"))
            }
            if feature.variants.isEmpty { error(path.key("variants"), "define at least one variant") }
            if feature.variants[feature.defaultVariant] == nil {
                error(path.key("defaultVariant"), "variant \"\(feature.defaultVariant)\" is not defined in variants (defined: \(Self.list(feature.variants.keys)))")
            }
            for (variantName, variant) in feature.variants.sorted(by: { $0.key < $1.key }) {
                func vpath() -> ConfigPath { path.key("variants").key(variantName) }
                if let instructions = variant.instructions {
                    checkTemplate(instructions, inputs: seenInputs, vpath().key("instructions"))
                }
                switch (variant.template, variant.templateFile) {
                case (let text?, nil):
                    checkTemplate(text, inputs: seenInputs, vpath().key("template"))
                case (nil, let file?):
                    if !PromptFileResolver.isSafeRelativePath(file) {
                        error(vpath().key("templateFile"), "\"\(file)\" must be a relative path under prompts/ without '..'")
                    } else if let text = promptFiles.contents(of: file) {
                        for finding in SecretScanner.findings(inText: text, at: vpath().key("templateFile")) {
                            error(vpath().key("templateFile"), "in \(file): " + Self.secretMessage(finding.kind))
                        }
                        if checkTemplate(text, inputs: seenInputs, vpath().key("templateFile"), file: file) {
                            inlinedTemplates.append(InlinedTemplate(
                                feature: name, variant: variantName, prompt: PromptVariant(instructions: variant.instructions, template: text)))
                            templateFiles[vpath().description] = file
                        }
                    } else {
                        error(vpath().key("templateFile"), "template file \"\(file)\" not found under prompts/")
                    }
                case (nil, nil):
                    error(vpath(), "set template or templateFile")
                case (_?, _?):
                    error(vpath(), "set template or templateFile, not both")
                }
            }
            if let schema = feature.outputSchema, schema.source.objectValue == nil {
                error(path.key("outputSchema"), "expected a JSON Schema object, found \(schema.source.typeName)")
            }
            if let constraints = feature.constraints {
                do {
                    try constraints.validateDefinition()
                } catch {
                    self.error(path.key("constraints"), relative: error.path, error.message)
                }
            }
            checkPriority(feature.priority, feature: feature, path.key("priority"), allowEmpty: false)
            if let options = feature.options {
                let opath = path.key("options")
                if let t = options.temperature, !(t.isFinite && t >= 0 && t <= 2) { error(opath.key("temperature"), "must be between 0 and 2, found \(t)") }
                if let p = options.topP, !(p.isFinite && p > 0 && p <= 1) { error(opath.key("topP"), "must be more than 0 and at most 1, found \(p)") }
                if let m = options.maxOutputTokens, m <= 0 { error(opath.key("maxOutputTokens"), "must be more than 0, found \(m)") }
            }
            if let deadline = feature.deadlineMs, deadline <= 0 { error(path.key("deadlineMs"), "must be more than 0 milliseconds, found \(deadline)") }
            if let budget = feature.monthlyBudgetUSD, !(budget.isFinite && budget >= 0) {
                error(path.key("monthlyBudgetUSD"), "must be 0 or more dollars, found \(budget)")
            }
            if feature.monthlyBudgetUSD != nil { checkBudgetIsPriced(feature.priority, path.key("monthlyBudgetUSD")) }
            if let routing = feature.routing { checkRouting(routing, path.key("routing")) }
            checkEffectiveRouting(name, feature, path)
            checkOverrides(feature, inputs: seenInputs, path.key("overrides"))
            if let rules = feature.inputRules { checkInputRules(rules, feature: feature, path.key("inputRules")) }
        }

        /// Prices are dollars per million tokens, 0 or more; a hosted model without prices is allowed (its cost is
        /// reported as unknown) but said.
        mutating func checkPricing(_ model: ModelConfig, _ path: ConfigPath) {
            guard let pricing = model.pricing else {
                if model.tier == .thirdParty {
                    warning(path, "missing: the cost of this model's calls is reported as unknown and a monthly budget over it is refused; give inputPerMillion and outputPerMillion")
                }
                return
            }
            for (key, value) in [("inputPerMillion", pricing.inputPerMillion), ("outputPerMillion", pricing.outputPerMillion),
                                 ("cachedInputPerMillion", pricing.cachedInputPerMillion ?? 0)]
            where !(value.isFinite && value >= 0) {
                error(path.key(key), "must be a price of 0 or more dollars per million tokens, found \(value)")
            }
            if let cached = pricing.cachedInputPerMillion, cached > pricing.inputPerMillion {
                warning(path.key("cachedInputPerMillion"), "cached input (\(cached)) costs more than uncached input (\(pricing.inputPerMillion))")
            }
        }

        /// A budget counts dollars, so every metered model it covers needs a price: one of unknown price would never
        /// count against it.
        mutating func checkBudgetIsPriced(_ priority: [String], _ path: ConfigPath) {
            for id in unpricedMetered(priority) {
                error(path, "covers model \"\(id)\", whose price is unknown: give models.\(id).pricing (or, in code, pricing: on its declaration) so its calls count against the budget")
            }
        }

        /// The models of `ids` that are billed and have no prices: what a budget or a cost cap cannot count.
        func unpricedMetered(_ ids: some Sequence<String>) -> [String] {
            ids.filter { id in document.models[id].map { $0.pricing == nil && $0.isMetered } ?? false }
        }

        // MARK: Routing

        /// One routing block on its own: known error kinds and output checks, positive durations.
        mutating func checkRouting(_ routing: RoutingConfig, _ path: ConfigPath) {
            for name in (routing.onError ?? [:]).keys.sorted() where GenerationError.Kind(rawValue: name) == nil {
                error(path.key("onError").key(name), "\"\(name)\" is not an error kind (kinds: \(GenerationError.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if let entries = routing.fallbackOnOutput {
                do {
                    _ = try OutputCheckSelection(parsing: entries)
                } catch {
                    self.error(path.key("fallbackOnOutput").index(error.index), error.description)
                }
            }
            if let value = routing.attemptTimeoutMs, value < 0 {
                error(path.key("attemptTimeoutMs"), "must be 0 (no per-attempt timeout) or more milliseconds, found \(value)")
            }
            for (key, value) in [("rateLimitCooldownMs", routing.rateLimitCooldownMs), ("quotaCooldownMs", routing.quotaCooldownMs)] {
                if let value, value <= 0 { error(path.key(key), "must be more than 0 milliseconds, found \(value)") }
            }
            if let hedge = routing.hedge { checkHedge(hedge, path.key("hedge")) }
        }

        /// A hedge block on its own: a positive delay, a cost cap of 0 or more, a share in (0, 1], tiers listed once.
        private mutating func checkHedge(_ hedge: HedgeConfig, _ path: ConfigPath) {
            if hedge.afterMs <= 0 { error(path.key("afterMs"), "must be more than 0 milliseconds, found \(hedge.afterMs)") }
            if let cap = hedge.maxExtraCostPerRequestUSD, !(cap.isFinite && cap >= 0) {
                error(path.key("maxExtraCostPerRequestUSD"), "must be 0 or more dollars, found \(cap)")
            }
            if let share = hedge.maxHedgedShare, !(share.isFinite && share > 0 && share <= 1) {
                error(path.key("maxHedgedShare"), "must be more than 0 and at most 1 (a share of requests), found \(share)")
            }
            if let tiers = hedge.tiers {
                if tiers.isEmpty { error(path.key("tiers"), "list at least one tier, or leave tiers out to allow any the privacy class allows") }
                for (i, tier) in tiers.enumerated() where tiers[..<i].contains(tier) {
                    error(path.key("tiers").index(i), "tier \(tier.rawValue) is listed twice")
                }
            }
        }

        /// The feature's routing over the document defaults, against the feature: checks it names must exist, a
        /// per-attempt timeout must fit the deadline, and output checks on streams need buffered delivery.
        private mutating func checkEffectiveRouting(_ name: String, _ feature: FeatureConfig, _ path: ConfigPath) {
            guard let routing = document.routing(feature: name) else { return }
            func rpath() -> ConfigPath { path.key("routing") }
            // Name the block the entry came from: the feature's own, or the document's defaults.
            func outputPath() -> ConfigPath {
                feature.routing?.fallbackOnOutput != nil ? rpath().key("fallbackOnOutput") : ConfigPath.root.key("routing").key("fallbackOnOutput")
            }
            if let selection = routing.outputSelection {
                if selection.schema && feature.outputSchema == nil {
                    error(outputPath(), "falls back on schema but feature \(name) has no outputSchema")
                }
                let produced = OutputChecks(schema: feature.outputSchema, constraints: feature.constraints).resultNamesProduced
                for check in selection.names.sorted() where !produced.contains(check) {
                    error(outputPath(), "falls back on \(check) but feature \(name) checks no such thing (its checks: \(Self.list(produced)))")
                }
                if !selection.isEmpty && routing.streaming != .buffered {
                    warning(rpath().key("streaming"), "streamed answers cannot fall back on output checks once text was delivered; set \"streaming\": \"buffered\" if this feature streams")
                }
            }
            if let timeout = routing.attemptTimeoutMs, let deadline = feature.deadlineMs, timeout > deadline {
                warning(rpath().key("attemptTimeoutMs"), "\(timeout) ms is longer than the feature's deadlineMs (\(deadline)); the deadline cuts first")
            }
            if let hedge = routing.hedge { checkEffectiveHedge(hedge, routing, name, feature, path) }
        }

        /// A hedge against the feature: it must be able to race something and start before a timer cuts the call.
        private mutating func checkEffectiveHedge(
            _ hedge: HedgeConfig, _ routing: RoutingConfig, _ name: String, _ feature: FeatureConfig, _ path: ConfigPath
        ) {
            let hpath = feature.routing?.hedge != nil ? path.key("routing").key("hedge") : ConfigPath.root.key("routing").key("hedge")
            let allowed = (hedge.tiers ?? ModelTier.allCases).filter { feature.privacy.allows(tier: $0) }
            if allowed.isEmpty {
                warning(hpath.key("tiers"), "privacy class \(feature.privacy.rawValue) of feature \(name) allows none of these tiers; it never hedges")
            }
            if feature.priority.count < 2 {
                warning(hpath, "feature \(name) has one model in its priority order; there is nothing to race")
            }
            for (key, limit) in [("attemptTimeoutMs", routing.attemptTimeoutMs), ("deadlineMs", feature.deadlineMs)] {
                if let limit, hedge.afterMs >= limit {
                    warning(hpath.key("afterMs"), "\(hedge.afterMs) ms is not shorter than \(key) (\(limit)); the call is cut before it is hedged")
                }
            }
            // The cost cap judges a raced model by its price: one of unknown price would always pass it.
            guard hedge.maxExtraCostPerRequestUSD != nil else { return }
            for id in unpricedMetered(feature.priority.dropFirst()) where document.models[id].map({ allowed.contains($0.tier) }) ?? false {
                error(hpath.key("maxExtraCostPerRequestUSD"), "cannot judge model \"\(id)\", whose price is unknown: give models.\(id).pricing, or leave its tier out of tiers")
            }
        }

        /// `path` is built only for an issue, as in ``checkTemplate(_:inputs:_:file:)``: every feature has a priority.
        mutating func checkPriority(
            _ priority: [String], feature: FeatureConfig, _ path: @autoclosure () -> ConfigPath, allowEmpty: Bool
        ) {
            if priority.isEmpty && !allowEmpty { error(path(), "list at least one model id") }
            for (i, id) in priority.enumerated() {
                func ipath() -> ConfigPath { path().index(i) }
                // Lists are a handful of ids: a scan of the earlier ones beats building a set per feature.
                if priority[..<i].contains(id) { error(ipath(), "model \"\(id)\" is listed twice") }
                guard let model = document.models[id] else {
                    error(ipath(), "model \"\(id)\" is not defined in models (defined: \(Self.list(document.models.keys)))")
                    continue
                }
                if !feature.privacy.allows(tier: model.tier) {
                    error(ipath(), "model \"\(id)\" is \(model.tier.rawValue) but privacy class \(feature.privacy.rawValue) allows at most \(feature.privacy.maximumTier.rawValue)")
                }
                if feature.outputSchema != nil && !model.capabilities.structuredOutput {
                    warning(ipath(), "model \"\(id)\" has no structured output; the schema will only be asked for in the prompt")
                }
            }
        }

        /// Parses a template and checks its variables against the feature's inputs; true when it is usable.
        ///
        /// `path` is built only for an issue: templates are checked by the thousand on every load, rarely with one.
        @discardableResult
        mutating func checkTemplate(
            _ text: String, inputs: [String], _ path: @autoclosure () -> ConfigPath, file: String? = nil
        ) -> Bool {
            do {
                // The names in order, not `variables`: that builds a set per template, and nearly every variable is
                // known; nor a whole `PromptTemplate`, whose text segments nothing here reads.
                var unknown: [String] = []
                for variable in try PromptTemplate.variableOccurrences(in: text) where !inputs.contains(variable) && !unknown.contains(variable) {
                    error(path(), "\(Self.prefix(file))template references unknown variable \"\(variable)\" (declared inputs: \(Self.list(inputs)))")
                    unknown.append(variable)
                }
                return unknown.isEmpty
            } catch {
                self.error(path(), Self.prefix(file) + error.description)
                return false
            }
        }

        private static func prefix(_ file: String?) -> String { file.map { "in \($0): " } ?? "" }

        // MARK: Rollouts

        private mutating func checkRollout(_ name: String, _ rollout: RolloutConfig, _ path: ConfigPath) {
            guard let feature = document.features[name] else {
                error(path, "rollout for feature \"\(name)\" which is not defined in features")
                return
            }
            if rollout.seed.isEmpty { error(path.key("seed"), "must not be empty") }
            if rollout.arms.isEmpty { error(path.key("arms"), "define at least one arm") }
            var total = 0.0
            var names = Set<String>()
            for (i, arm) in rollout.arms.enumerated() {
                let apath = path.key("arms").index(i)
                if arm.name.isEmpty { error(apath.key("name"), "must not be empty") }
                if !names.insert(arm.name).inserted { error(apath.key("name"), "arm \"\(arm.name)\" is listed twice") }
                if !(arm.percentage.isFinite && arm.percentage >= 0 && arm.percentage <= 100) {
                    error(apath.key("percentage"), "must be between 0 and 100, found \(arm.percentage)")
                } else {
                    total += arm.percentage
                }
                let rulesChange = arm.inputRules.map { $0 != (feature.inputRules ?? []) } ?? false
                if arm.variant == nil && arm.priority == nil && !rulesChange {
                    error(apath, "set variant, priority, inputRules or several (an arm that changes nothing measures nothing)")
                }
                if let rules = arm.inputRules { checkInputRules(rules, feature: feature, apath.key("inputRules")) }
                if let variant = arm.variant, feature.variants[variant] == nil {
                    error(apath.key("variant"), "variant \"\(variant)\" is not defined in features.\(name).variants (defined: \(Self.list(feature.variants.keys)))")
                }
                if let priority = arm.priority {
                    checkPriority(priority, feature: feature, apath.key("priority"), allowEmpty: false)
                }
            }
            if total > 100.000_001 { error(path.key("arms"), "percentages add up to \(total), more than 100") }
            if let plan = rollout.plan { checkPlan(plan, of: rollout, path.key("plan")) }
            if let design = rollout.design { checkDesign(design, path.key("design")) }
        }

        /// A plan moves one arm of its rollout through increasing stages to 100 %, guarded by distinct metrics.
        private mutating func checkPlan(_ plan: RolloutPlan, of rollout: RolloutConfig, _ path: ConfigPath) {
            if let arm = plan.arm, !rollout.arms.contains(where: { $0.name == arm }) {
                error(path.key("arm"), "no arm named \"\(arm)\" in this rollout (arms: \(Self.list(rollout.arms.map(\.name))))")
            } else if plan.armName(in: rollout) == nil {
                error(path.key("arm"), "name the arm the plan moves: the rollout has \(rollout.arms.count) arms")
            }
            if plan.stages.isEmpty { error(path.key("stages"), "list at least one stage") }
            for (i, stage) in plan.stages.enumerated() {
                if !(stage.isFinite && stage > 0 && stage <= 100) {
                    error(path.key("stages").index(i), "must be above 0 and at most 100, found \(stage)")
                } else if i > 0, stage <= plan.stages[i - 1] {
                    error(path.key("stages").index(i), "stages must increase: \(stage) follows \(plan.stages[i - 1])")
                }
            }
            if let last = plan.stages.last, last != 100 { error(path.key("stages"), "the last stage must be 100, found \(last)") }
            if let name = plan.armName(in: rollout), let arm = rollout.arms.first(where: { $0.name == name }),
                arm.percentage != 0, plan.stageIndex(of: arm.percentage) == nil
            {
                error(path.key("stages"), "arm \(name) is at \(arm.percentage) %, which is not a stage (start it at 0 or at a stage)")
            }
            if !(plan.minStageHours.isFinite && plan.minStageHours >= 0) {
                error(path.key("minStageHours"), "must be 0 or more, found \(plan.minStageHours)")
            }
            if plan.minInstallsPerArm < 1 { error(path.key("minInstallsPerArm"), "must be at least 1, found \(plan.minInstallsPerArm)") }
            if plan.guardrails.isEmpty { error(path.key("guardrails"), "guard at least one metric (a rollout nothing watches is a release)") }
            var seen = Set<RolloutPlan.Metric>()
            for (i, guardrail) in plan.guardrails.enumerated() {
                if !seen.insert(guardrail.metric).inserted {
                    error(path.key("guardrails").index(i).key("metric"), "\(guardrail.metric.rawValue) is guarded twice")
                }
                if !(guardrail.tolerance.isFinite && guardrail.tolerance >= 0) {
                    error(path.key("guardrails").index(i).key("tolerance"), "must be 0 or more, found \(guardrail.tolerance)")
                }
            }
        }

        // MARK: Helpers

        static func list(_ names: some Sequence<String>) -> String {
            let sorted = names.sorted()
            return sorted.isEmpty ? "none" : sorted.joined(separator: ", ")
        }

        static func isModelID(_ id: String) -> Bool {
            guard let first = id.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
            return id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        }

        static func isEnvironmentName(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }
    }
}

extension ConfigValidator {
    /// The app's own routing block (`RouterDefaults.routing`), checked as a config's block is; the paths of the
    /// issues start at `RouterDefaults.routing`, so the message points at code rather than at a JSON file.
    package static func validate(appRouting routing: RoutingConfig) throws(ConfigError) {
        var checker = Checker(document: HybridConfigDocument(version: 0, models: [:], features: [:]), promptFiles: PromptFileResolver())
        checker.checkRouting(routing, ConfigPath.root)
        if routing.hedge != nil {
            // A hedge spends money on a second model: the config decides it, from eval evidence (`hybrid recommend`),
            // and the recommender's blocks could not switch off one set in code.
            checker.error(ConfigPath.root.key("hedge"), "hedging is set in the config (routing.hedge), not in the app's defaults")
        }
        let errors = checker.issues.filter { $0.severity == .error }
        guard !errors.isEmpty else { return }
        throw .invalid(errors.map { ConfigIssue(path: "RouterDefaults.routing." + $0.path, message: $0.message) })
    }
}
