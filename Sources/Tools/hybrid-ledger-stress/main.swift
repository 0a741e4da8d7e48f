// A writer the file-backed spend ledger's crash test runs as a child process and kills with SIGKILL part-way.
//
//   hybrid-ledger-stress FILE COUNT
//
// Adds 0.01 USD to model "m" in 2025-06 COUNT times through `FileSpendLedger(url: FILE)`, printing `ack N` (the
// ledger's request count after the write) once each write returned, so every line the parent reads names a state the
// ledger acknowledged. Exit status 0 after COUNT writes, 1 on a ledger error (message on stderr).
import Foundation
import HybridCore
import HybridRouter

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: hybrid-ledger-stress FILE COUNT\n".utf8))
    exit(2)
}
let ledger = FileSpendLedger(url: URL(fileURLWithPath: arguments[1]))
let month = BillingMonth(year: 2025, month: 6)!
do {
    for _ in 0..<count {
        try await ledger.addSpend(model: "m", month: month, usd: 0.01)
        let acknowledged = try await ledger.spendRecords(month: month).first?.requestCount ?? 0
        FileHandle.standardOutput.write(Data("ack \(acknowledged)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
