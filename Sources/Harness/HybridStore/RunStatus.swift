/// Where an eval run stands; stored as its raw value in `runs.status`.
public enum RunStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Started and not finished. After a crash or `kill -9` a run stays here until resumed or marked interrupted.
    case running
    /// Every planned key has a result.
    case completed
    /// Stopped early (Ctrl-C, budget cap); `hybrid eval --resume RUN` finishes the missing keys.
    case interrupted
}
