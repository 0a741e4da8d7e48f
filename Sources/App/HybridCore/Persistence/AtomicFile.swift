package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file replacement that a crash can never tear: the file holds either the previous or the new bytes.
///
/// The bytes go to a temporary file in the same directory, which is flushed to disk (`fsync`) and then renamed over
/// the target; the directory is flushed too, so the rename itself survives power loss. A crash before the rename
/// leaves only a stray temporary file (removed by `removeStaleTemporaryFiles`), never a half-written target.
/// Used by the file-backed spend ledger and config snapshot cache, which apps use instead of SQLite.
package enum AtomicFile {
    /// The file's bytes, or nil when it does not exist.
    static func read(_ url: URL) throws(AtomicFileError) -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw AtomicFileError(path: url.path, operation: "read", reason: String(describing: error))
        }
    }

    /// Replaces the file's contents with `data` (creating the directory if needed); atomic and durable.
    package static func write(_ data: Data, to url: URL) throws(AtomicFileError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw AtomicFileError(path: directory.path, operation: "create directory", reason: String(describing: error))
        }
        let temporary = directory.appendingPathComponent(temporaryPrefix(for: url) + "\(getpid())-" + UUID().uuidString)
        do throws(Failure) {
            try writeAndSync(data, to: temporary.path)
            try check(rename(temporary.path, url.path), "rename into place")
            try syncDirectory(directory.path)
        } catch {
            unlink(temporary.path)
            throw AtomicFileError(path: url.path, operation: "write", reason: error.reason)
        }
    }

    /// The JSON file decoded, after deleting temporary files a crashed writer left; nil when it does not exist.
    /// Call it once, when a file-backed store opens, before any write.
    package static func readJSON<T: Decodable>(_ type: T.Type, from url: URL, decoder: JSONDecoder = JSONDecoder()) throws(AtomicFileError) -> T? {
        removeStaleTemporaryFiles(of: url)
        guard let data = try read(url) else { return nil }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw AtomicFileError(path: url.path, operation: "decode", reason: String(describing: error))
        }
    }

    /// `value` as JSON, replacing the file atomically and durably (see `write(_:to:)`).
    package static func writeJSON<T: Encodable>(_ value: T, to url: URL, encoder: JSONEncoder) throws(AtomicFileError) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw AtomicFileError(path: url.path, operation: "encode", reason: String(describing: error))
        }
        try write(data, to: url)
    }

    /// Deletes temporary files a crashed writer of `url` left behind: those whose writer process (named in the file
    /// name) no longer runs, so a reader in another process never deletes a live writer's file mid-write.
    static func removeStaleTemporaryFiles(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: url)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let writer = name.dropFirst(prefix.count).prefix { $0 != "-" }
            if let pid = pid_t(writer), isRunning(pid) { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// Whether process `pid` exists (signal 0 checks without sending anything; EPERM means it exists as another user).
    private static func isRunning(_ pid: pid_t) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// Hidden and named after the target, so stale ones are easy to find and never mistaken for the file; the writer's
    /// process id and a UUID follow.
    static func temporaryPrefix(for url: URL) -> String { "." + url.lastPathComponent + ".tmp-" }

    private struct Failure: Error {
        var reason: String
    }

    private static func check(_ result: Int32, _ step: String) throws(Failure) {
        if result != 0 { throw Failure(reason: "\(step): \(String(cString: strerror(errno)))") }
    }

    private static func writeAndSync(_ data: Data, to path: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(reason: "create temporary file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var failure: Failure?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Failure(reason: "write: \(String(cString: strerror(errno)))")
                    return
                }
                offset += written
            }
        }
        if let failure { throw failure }
        try check(fsync(fd), "fsync")
    }

    private static func syncDirectory(_ path: String) throws(Failure) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }  // Some platforms cannot open directories; the rename is still atomic.
        defer { close(fd) }
        try check(fsync(fd), "fsync directory")
    }
}

/// A file-backed store could not read or replace its file; names the file and the step that failed.
package struct AtomicFileError: Error, Sendable, CustomStringConvertible {
    /// The file or directory concerned.
    var path: String
    /// What was being done (`read`, `write`).
    var operation: String
    /// The system's explanation.
    package var reason: String

    package var description: String { "cannot \(operation) \(path): \(reason)" }
}

/// POSIX `write(2)`, named apart from `AtomicFile.write`.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
    #else
    Darwin.write(fd, bytes, count)
    #endif
}
