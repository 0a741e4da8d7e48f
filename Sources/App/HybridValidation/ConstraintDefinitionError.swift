/// Why an ``OutputConstraints`` definition cannot be used; thrown by ``OutputConstraints/validateDefinition()``.
///
/// Paths are relative to the constraints object (`maxSentences`, `mustNotContain[1]`); a config loader
/// prefixes its own location. ``description`` renders `path: message`.
package enum ConstraintDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A count limit below what makes sense (negative, or a maximum of 0 that forbids any output).
    case limitTooSmall(path: String, value: Int, minimumAllowed: Int)
    /// A minimum above its maximum, which no output can satisfy.
    case emptyRange(path: String, minimum: Int, maximumKey: String, maximum: Int)
    /// A pattern that is empty or only white space, which would match everything.
    case emptyPattern(path: String)
    /// A `{"regex": …}` pattern that does not compile.
    case invalidPattern(path: String, pattern: String, reason: String)

    /// Where in the constraints object the problem is.
    package var path: String {
        switch self {
        case .limitTooSmall(let path, _, _), .emptyRange(let path, _, _, _), .emptyPattern(let path),
            .invalidPattern(let path, _, _):
            path
        }
    }

    /// What is wrong, without the path.
    package var message: String {
        switch self {
        case .limitTooSmall(_, let value, let minimumAllowed):
            "must be at least \(minimumAllowed), got \(value)"
        case .emptyRange(_, let minimum, let maximumKey, let maximum):
            "\(minimum) is greater than \(maximumKey) (\(maximum)); no output can satisfy both"
        case .emptyPattern:
            "pattern is empty; it would match every output"
        case .invalidPattern(_, let pattern, let reason):
            "invalid regular expression '\(pattern)': \(reason)"
        }
    }

    package var description: String { "\(path): \(message)" }
}
