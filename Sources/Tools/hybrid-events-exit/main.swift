// An app process the events tests run as a child: it routes requests with a JSONLinesEventSink and returns from
// `main` at once, awaiting nothing (no `flush()`, no `Router.shutdown()`), as a command-line tool or a server killed
// after its last request would.
//
//   hybrid-events-exit DIRECTORY INSTALL_ID COUNT
//
// Makes COUNT concurrent requests that a scripted model serves, then one more in a task that it cancels while the model
// is still answering, all through the declared router's public API with `JSONLinesEventSink(directory: DIRECTORY)`.
// Prints `served COUNT` and `cancelled` as the calls return, then exits 0; exits 1 when a request did not end as scripted. The
// scripted model stands in for any model: the events are what the test reads, not the answers.
import Foundation
import HybridEvents
import HybridRouter
import HybridTestSupport

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: hybrid-events-exit DIRECTORY INSTALL_ID COUNT\n".utf8))
    exit(2)
}
let model = ScriptedLanguageModel(
    id: "scripted", script: Array(repeating: .reply("done"), count: count) + [.hang])
let router = try Router(
    models: [.model(model)], installId: arguments[2], stateDirectory: nil,
    eventSink: JSONLinesEventSink(directory: URL(fileURLWithPath: arguments[1])))

// Concurrent, so the last events are recorded moments before the process exits.
let served = try await withThrowingTaskGroup(of: Void.self) { group in
    for index in 0..<count { group.addTask { _ = try await router.respond(to: "request \(index + 1)") } }
    var served = 0
    for try await _ in group { served += 1 }
    return served
}
print("served \(served)")
let cancelled = Task { try await router.respond(to: "cancelled request") }
await model.waitUntil { $0.calls == count + 1 }
cancelled.cancel()
guard case .failure(let error as RouterError) = await cancelled.result, error.code == .cancelled else {
    FileHandle.standardError.write(Data("the cancelled request did not end with RouterError.cancelled\n".utf8))
    exit(1)
}
print("cancelled")
