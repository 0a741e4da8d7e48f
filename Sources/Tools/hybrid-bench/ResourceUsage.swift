import Foundation
import Glibc

/// CPU time and memory of this process and its reaped children, for per-request cost figures.
enum ResourceUsage {
    /// User + system CPU seconds of this process (all threads).
    static func cpuSeconds() -> Double { seconds(who: RUSAGE_SELF) }

    /// User + system CPU seconds of children that have exited and been waited for.
    static func childrenCPUSeconds() -> Double { seconds(who: RUSAGE_CHILDREN) }

    /// Peak resident set size in bytes (VmHWM from /proc, else ru_maxrss).
    static func peakRSSBytes() -> Int {
        if let kilobytes = procStatusKilobytes("VmHWM:") { return kilobytes * 1024 }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// Resident set size now, in bytes (VmRSS from /proc; 0 where there is none). Unlike the peak, this tells
    /// two measurements in one process apart.
    static func currentRSSBytes() -> Int { (procStatusKilobytes("VmRSS:") ?? 0) * 1024 }

    /// The 1-, 5- and 15-minute load averages as `uptime` prints them, to print beside every figure.
    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) == 3 else { return "unknown" }
        return loads.map { String(format: "%.2f", $0) }.joined(separator: ", ")
    }

    private static func procStatusKilobytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    private static func seconds(who: __rusage_who) -> Double {
        var usage = rusage()
        getrusage(who.rawValue, &usage)
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }
}
