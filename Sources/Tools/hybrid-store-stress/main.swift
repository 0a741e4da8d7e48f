// A writer the store's durability test runs as a child process and kills with SIGKILL part-way.
//
//   hybrid-store-stress DATABASE RUN_ID COUNT [WRITERS]
//
// Creates the run when missing, then WRITERS tasks (default 4) insert results for repeats 0..<COUNT of one case,
// one transaction each. After each insert returns it prints `ack N` on its own line, so every line the parent reads
// names a result the store acknowledged. Exit status 0 after COUNT results, 1 on a store error (message on stderr).
import Foundation
import HybridCore
import HybridStore

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: hybrid-store-stress DATABASE RUN_ID COUNT [WRITERS]\n".utf8))
    exit(2)
}
let path = arguments[1]
let runID = arguments[2]
let writers = arguments.count > 4 ? max(1, Int(arguments[4]) ?? 4) : 4

/// The result the parent expects for repeat `index`: the same function is used by the test to check contents.
func stressResult(run: String, index: Int) -> ResultRecord {
    ResultRecord(
        key: ResultKey(runID: run, caseID: "case", armID: "arm", repeatIndex: index),
        feature: "stress",
        promptVariant: "v1",
        modelID: "model-\(index % 3)",
        tier: .onDevice,
        renderedPromptHash: "hash-\(index)",
        rawOutput: "output \(index) " + String(repeating: "x", count: index % 200),
        usage: TokenUsage(promptTokens: index, completionTokens: index * 2),
        timings: ResultTimings(totalMs: Double(index) + 0.5),
        constraints: [ConstraintOutcome(name: "max_chars", passed: index % 2 == 0, observed: .int(index))],
        completedAt: Date(timeIntervalSince1970: 1_700_000_000)
    )
}

do {
    let store = try SQLiteResultStore(path: path)
    if try await store.run(id: runID) == nil {
        try await store.createRun(
            RunRecord(id: runID, features: ["stress"], datasetPath: "-", datasetHash: "-", plannedCount: count, seed: 1)
        )
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in 0..<writers {
            group.addTask {
                for index in stride(from: writer, to: count, by: writers) {
                    try await store.insertResult(stressResult(run: runID, index: index))
                    // One write(2) per line: lines from different tasks never interleave.
                    FileHandle.standardOutput.write(Data("ack \(index)\n".utf8))
                }
            }
        }
        try await group.waitForAll()
    }
    try await store.finishRun(id: runID, at: Date())
} catch {
    FileHandle.standardError.write(Data("hybrid-store-stress: \(error)\n".utf8))
    exit(1)
}
