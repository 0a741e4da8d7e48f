public import Foundation

/// How a child process ended, said so that a user can act on it: the signal by name and meaning (Foundation's
/// `terminationStatus` is the signal number for a killed process, so "status 4" was SIGILL), what it most likely
/// means for a llama-server, the remedy, and the log's path with its last lines in order.
public struct ChildProcessExit: Sendable, Hashable, CustomStringConvertible {
    /// How the process ended.
    public enum Ending: Sendable, Hashable {
        /// It called `exit` with this status.
        case exited(status: Int32)
        /// A signal killed it (the number as `kill -l` lists it).
        case killed(signal: Int32)
    }

    /// How the process ended.
    public var ending: Ending
    /// Which program it was, as the message names it (`llama-server`).
    public var program: String
    /// When it ended: before it was ready (`before its port opened`) or while it served.
    public var phase: String
    /// Where its standard output and error went; nil when nowhere.
    public var logPath: String?
    /// The log's last lines, oldest first.
    public var logTail: [String]
    /// What to do about it, for endings whose cause is known.
    public var remedy: String?

    /// Describes a process that has ended.
    public init(
        _ process: Process, program: String, phase: String, logPath: String?, remedy: String? = nil, tailLines: Int = 12
    ) {
        let ending: Ending = process.terminationReason == .uncaughtSignal
            ? .killed(signal: process.terminationStatus) : .exited(status: process.terminationStatus)
        self.init(ending: ending, program: program, phase: phase, logPath: logPath, remedy: remedy, tailLines: tailLines)
    }

    /// Describes an ending; reads the log's last `tailLines` lines now.
    public init(ending: Ending, program: String, phase: String, logPath: String?, remedy: String? = nil, tailLines: Int = 12) {
        self.ending = ending
        self.program = program
        self.phase = phase
        self.logPath = logPath
        self.remedy = remedy
        self.logTail = logPath.map { Self.lastLines(of: $0, count: tailLines) } ?? []
    }

    /// One line: what happened and what it most likely means.
    public var summary: String {
        switch ending {
        case .exited(let status):
            return "\(program) exited with status \(status) \(phase)"
        case .killed(let signal):
            let known = Self.signals[signal]
            let name = known?.name ?? "signal \(signal)"
            let meaning = known.map { " (\($0.meaning))" } ?? ""
            let cause = known?.cause.map { ": \($0)" } ?? ""
            return "\(program) was killed by \(name)\(meaning) \(phase)\(cause)"
        }
    }

    /// The whole message: the summary, the remedy, the log's path and its last lines, one per line.
    public var description: String {
        var lines = [summary]
        if let remedy { lines.append("remedy: \(remedy)") }
        if let logPath {
            lines.append(logTail.isEmpty ? "log: \(logPath) (empty)" : "log: \(logPath), last lines:")
            lines += logTail.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// The fatal signals a server meets, with what each most likely means. The numbers are Linux's and macOS's
    /// alike for these (SIGBUS differs: 7 on Linux, 10 on macOS, so it is taken from the platform).
    static let signals: [Int32: (name: String, meaning: String, cause: String?)] = [
        SIGILL: ("SIGILL", "illegal instruction", "this build uses CPU instructions this machine refuses"),
        SIGKILL: ("SIGKILL", "killed", "something killed it, most often the kernel's out-of-memory killer (see `dmesg`)"),
        SIGSEGV: ("SIGSEGV", "segmentation fault", "it crashed; a corrupt model file or a broken build"),
        SIGBUS: ("SIGBUS", "bus error", "it crashed reading memory; a truncated model file or a full disk"),
        SIGABRT: ("SIGABRT", "aborted", "it stopped itself on an internal error; the log's last lines say which"),
        SIGFPE: ("SIGFPE", "arithmetic exception", "it crashed; a broken build"),
        SIGTERM: ("SIGTERM", "terminated", "something asked it to stop"),
        SIGHUP: ("SIGHUP", "hang-up", "its terminal or session ended"),
        SIGINT: ("SIGINT", "interrupted", "Ctrl-C reached it"),
    ]

    /// The last `count` non-empty lines of a text file, oldest first; empty when it cannot be read.
    static func lastLines(of path: String, count: Int) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        // A server's log can be large; its end is all that is wanted.
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 16_384 ? size - 16_384 : 0)
        let data = (try? handle.readToEnd()) ?? Data()
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { String($0) }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return Array(lines.suffix(count))
    }
}
