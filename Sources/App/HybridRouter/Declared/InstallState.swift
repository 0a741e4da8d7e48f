import Foundation

/// What the declared router keeps across launches in one directory: the install id (the unit of rollouts and field
/// statistics, so it must not change at every launch) and the last-known-good copies of the fetched config.
struct InstallState: Sendable {
    /// The directory; created when first written.
    let directory: URL

    /// `install-id`: one UUID, written on the first launch.
    var installIdFile: URL { directory.appendingPathComponent("install-id") }
    /// `config-cache.json`: the `ConfigLoader`'s last-known-good copies.
    var configCacheFile: URL { directory.appendingPathComponent("config-cache.json") }

    /// Application Support/HybridAI on Apple platforms; `$XDG_DATA_HOME/hybridai`, else `~/.local/share/hybridai`,
    /// on Linux.
    static func defaultDirectory() -> URL? {
        #if canImport(Darwin)
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?.appendingPathComponent("HybridAI")
        #else
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("hybridai")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/hybridai")
        #endif
    }

    /// The stored install id, or a new one stored now. A directory that cannot be written gives a fresh id for this
    /// launch only (the router still works; rollouts then move at the next launch).
    func installId() -> String {
        if let stored = Self.read(installIdFile) { return stored }
        let fresh = UUID().uuidString
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((fresh + "\n").utf8).write(to: installIdFile, options: .atomic)
        } catch {
            return fresh
        }
        // Two processes starting at once: the file that landed wins for both.
        return Self.read(installIdFile) ?? fresh
    }

    private static func read(_ file: URL) -> String? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return UUID(uuidString: text) != nil ? text : nil
    }
}
