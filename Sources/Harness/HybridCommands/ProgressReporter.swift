import Foundation
import HybridRunner
import Synchronization

/// Shows eval progress: a redrawn bar on a terminal, a plain line every few seconds otherwise (CI logs).
final class ProgressReporter: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let lastLine = Mutex<ContinuousClock.Instant?>(nil)
    private let label: String
    /// Lines printed (to standard output) once, before the first progress: the run's plan. Held back until a result
    /// is stored because a streamed dataset is checked while the first requests go out, and a bad line must be the
    /// first thing said, not a plan of "N results" that was never going to run.
    private let header: Mutex<[String]?>

    init(label: String, header: [String] = []) {
        self.label = label
        self.header = Mutex(header)
    }

    /// Prints the header unless it was printed already.
    private func printHeader() {
        guard let lines = header.withLock({ lines -> [String]? in
            defer { lines = nil }
            return lines
        }) else { return }
        for line in lines { print(line) }
    }

    func update(_ p: EvalProgress) {
        printHeader()
        if isTerminal {
            // Ten redraws a second: one per result was a write(2) per sample, thousands a second in a fast eval.
            guard due(every: .milliseconds(100), p) else { return }
            let width = 30
            let filled = p.total > 0 ? width * p.done / p.total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let line = "\r\(label) [\(bar)] \(p.done)/\(p.total)  errors \(p.errors)\(Self.skipped(p, separator: "  "))  \(Self.rate(p))  ETA \(Self.eta(p))   "
            FileHandle.standardError.write(Data(line.utf8))
            return
        }
        if due(every: .seconds(5), p) {
            FileHandle.standardError.write(Data("\(label): \(p.done)/\(p.total) done, \(p.errors) errors\(Self.skipped(p, separator: ", ")), \(Self.rate(p)), ETA \(Self.eta(p))\n".utf8))
        }
    }

    /// True when `interval` passed since the last line (or this is the last result); records it as drawn.
    private func due(every interval: Duration, _ p: EvalProgress) -> Bool {
        let now = ContinuousClock.now
        return lastLine.withLock { last -> Bool in
            if let last, now - last < interval, p.done < p.total { return false }
            last = now
            return true
        }
    }

    func finish() {
        printHeader()
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// Results of arms never sent are skipped, not failed: counting them as errors would read as a model failing.
    static func skipped(_ p: EvalProgress, separator: String) -> String {
        p.unavailable > 0 ? "\(separator)skipped (unavailable) \(p.unavailable)" : ""
    }

    private static func rate(_ p: EvalProgress) -> String { String(format: "%.2f/s", p.rate) }

    private static func eta(_ p: EvalProgress) -> String {
        guard let eta = p.etaSeconds else { return "?" }
        return eta >= 60 ? "\(Int(eta) / 60)m\(Int(eta) % 60)s" : "\(Int(eta))s"
    }
}
