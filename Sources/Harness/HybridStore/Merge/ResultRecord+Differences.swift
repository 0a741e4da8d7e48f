extension ResultRecord {
    /// The names of the fields whose values differ from `other`'s (the key aside), timings and usage field by
    /// field: what a merge conflict reports.
    func differingFields(from other: ResultRecord) -> [String] {
        var fields: [String] = []
        func check<Value: Equatable>(_ name: String, _ path: KeyPath<ResultRecord, Value>) {
            if self[keyPath: path] != other[keyPath: path] { fields.append(name) }
        }
        check("feature", \.feature)
        check("promptVariant", \.promptVariant)
        check("modelID", \.modelID)
        check("tier", \.tier)
        check("renderedPromptHash", \.renderedPromptHash)
        check("renderedPrompt", \.renderedPrompt)
        check("configVersion", \.configVersion)
        check("configHash", \.configHash)
        check("rawOutput", \.rawOutput)
        check("parsedOutput", \.parsedOutput)
        check("usage", \.usage)
        check("timings.ttftMs", \.timings.ttftMs)
        check("timings.totalMs", \.timings.totalMs)
        check("timings.decodeTokensPerSecond", \.timings.decodeTokensPerSecond)
        check("timings.retryBackoffMs", \.timings.retryBackoffMs)
        check("timings.coldStart", \.timings.coldStart)
        check("timings.serverPromptMs", \.timings.serverPromptMs)
        check("timings.serverGenerationMs", \.timings.serverGenerationMs)
        check("costUSD", \.costUSD)
        check("constraints", \.constraints)
        check("scores", \.scores)
        check("error", \.error)
        check("retries", \.retries)
        check("cacheHit", \.cacheHit)
        check("completedAt", \.completedAt)
        return fields
    }
}
