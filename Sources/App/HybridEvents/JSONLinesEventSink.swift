public import Foundation
public import HybridCore
import Synchronization

/// Appends each event as one JSON line to `<name>.jsonl` in a directory, rotating by size: when the file would
/// pass `maxFileBytes` it becomes `<name>.1.jsonl` (older files shift to `.2`, `.3`, …; the oldest beyond
/// `maxRotatedFiles` is deleted).
///
/// `record` only queues the event: encoding and writing happen on the sink's own serial queue, in order, so a
/// request never waits for the disk. A process that exits normally (returning from `main`, or `exit`) right after a
/// request waits for the queue first (`ExitDrain`), so its events are in the file without a `flush()`; a crash or
/// SIGKILL can lose what the last few milliseconds recorded. `flush()` waits for the queue and asks the disk to keep
/// the lines through a power loss. A line torn by a crash is skipped by `RouteEventLines.decode` and the next write
/// starts a fresh line, so it never costs the other events. Events that cannot be written are counted in
/// `droppedCount`.
public final class JSONLinesEventSink: RouteEventSink {
    /// The directory holding the files.
    let directory: URL
    /// The base name of the files (`events` → `events.jsonl`, `events.1.jsonl`, …).
    let name: String
    /// The size past which the current file is rotated.
    let maxFileBytes: Int
    /// How many rotated files are kept besides the current one.
    let maxRotatedFiles: Int

    /// Where events are encoded and written, in the order they were recorded.
    private let queue = DispatchQueue(label: "HybridEvents.JSONLinesEventSink")
    /// The open file, touched only on `queue` (the lock makes that checkable, and costs nothing uncontended).
    private let appender: Mutex<LineAppender>
    private let dropped = Atomic<Int>(0)
    private let lastError = Mutex<String?>(nil)

    /// A sink writing to `directory/<name>.jsonl` (the directory is created on the first write).
    public init(directory: URL, name: String = "events", maxFileBytes: Int = 5_000_000, maxRotatedFiles: Int = 3) {
        self.directory = directory
        self.name = name
        self.maxFileBytes = max(1, maxFileBytes)
        self.maxRotatedFiles = max(0, maxRotatedFiles)
        self.appender = Mutex(LineAppender(url: directory.appendingPathComponent("\(name).jsonl")))
        ExitDrain.register(self)
    }

    /// Queues the event; its line is written on the sink's queue (see the type's notes).
    public func record(_ event: RouteEvent) {
        queue.async { self.write(event) }
    }

    /// Waits (up to 2 s) for the lines queued so far: the process is exiting (`ExitDrain`).
    func drainAtExit() {
        let written = DispatchSemaphore(value: 0)
        queue.async { written.signal() }
        _ = written.wait(timeout: .now() + .seconds(2))
    }

    private func write(_ event: RouteEvent) {
        let line: Data
        do {
            line = try RouteEventLines.line(event)
        } catch {
            drop(error, file: fileURL(0))
            return
        }
        appender.withLock { write(line, to: &$0) }
    }

    /// Returns once every event recorded before the call is written and flushed to disk (`fsync`).
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.appender.withLock { try? $0.synchronize() }
                continuation.resume()
            }
        }
    }

    /// Events that could not be written.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// The last write error, naming the file; nil when every write succeeded.
    public var lastWriteError: String? { lastError.withLock { $0 } }

    /// The files holding events, oldest first (rotated files, then the current one); only those that exist.
    public var files: [URL] {
        let urls = (0...maxRotatedFiles).reversed().map(fileURL)
        return urls.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The current file (`index` 0) or a rotated one.
    func fileURL(_ index: Int) -> URL {
        directory.appendingPathComponent(index == 0 ? "\(name).jsonl" : "\(name).\(index).jsonl")
    }

    /// Appends `line`, rotating first when it would take the current file past `maxFileBytes`.
    private func write(_ line: Data, to appender: inout LineAppender) {
        do {
            if appender.size > 0, appender.size + line.count > maxFileBytes { try rotate(&appender) }
            try appender.append(line)
        } catch {
            drop(error, file: appender.url)
        }
    }

    private func drop(_ error: any Error, file: URL) {
        dropped.add(1, ordering: .relaxed)
        lastError.withLock { $0 = "\(file.path): \(error)" }
    }

    /// Shifts `<name>.jsonl` to `.1`, `.1` to `.2`, …, deleting the file beyond `maxRotatedFiles`.
    private func rotate(_ appender: inout LineAppender) throws {
        appender.close()
        let manager = FileManager.default
        try? manager.removeItem(at: fileURL(maxRotatedFiles))
        if maxRotatedFiles > 0 {
            for index in stride(from: maxRotatedFiles - 1, through: 0, by: -1) where manager.fileExists(atPath: fileURL(index).path) {
                try manager.moveItem(at: fileURL(index), to: fileURL(index + 1))
            }
        }
        appender = LineAppender(url: fileURL(0))
    }
}

/// The exit drain waits for the sink's queue (see the type's notes).
extension JSONLinesEventSink: ExitDrainable {}
