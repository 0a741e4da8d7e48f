import Foundation

/// Appends whole lines to one file, keeping its size. Not thread-safe: its owner serialises calls.
///
/// When the file does not end with a newline (a crash tore the last line), the first append starts a new line,
/// so the torn fragment stays one malformed line and the events after it stay readable.
final class LineAppender {
    let url: URL
    private var handle: FileHandle?
    private(set) var size: Int = 0

    init(url: URL) {
        self.url = url
    }

    /// Appends `line` (which ends with a newline), opening the file and repairing a torn tail first.
    func append(_ line: Data) throws {
        let handle = try open()
        try handle.write(contentsOf: line)
        size += line.count
    }

    /// Flushes written bytes to disk.
    func synchronize() throws {
        try handle?.synchronize()
    }

    func close() {
        try? handle?.close()
        handle = nil
    }

    private func open() throws -> FileHandle {
        if let handle { return handle }
        let manager = FileManager.default
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !manager.fileExists(atPath: url.path) {
            guard manager.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forUpdating: url)
        let end = try handle.seekToEnd()
        size = Int(end)
        if end > 0 {
            try handle.seek(toOffset: end - 1)
            let last = try handle.read(upToCount: 1)
            try handle.seekToEnd()
            if last != Data([0x0A]) {
                try handle.write(contentsOf: Data([0x0A]))
                size += 1
            }
        }
        self.handle = handle
        return handle
    }

    deinit {
        try? handle?.close()
    }
}
