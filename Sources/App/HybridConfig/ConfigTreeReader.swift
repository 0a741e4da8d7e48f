import HybridCore

/// Reads one JSON object of a parsed config: the one reader of config documents. It reads straight from the tree,
/// without going through `Decoder` (on a 200-feature document the generic containers cost more than the rest of
/// start-up together), skips keys it does not know (`ConfigValidator.unknownKeys` warns about them), and words every
/// problem as a ``ConfigIssue`` with its JSON path. Members whose types only the `Decodable` conformance spells out
/// (models, rollouts, routing, conditions, overrides) are read through it over the same tree, their errors worded
/// with their paths the same way.
struct ConfigTreeReader {
    /// The value is not what the document model expects; every issue found, with its path.
    struct Refusal: Error {
        var issues: [ConfigIssue]

        init(_ issues: [ConfigIssue]) { self.issues = issues }

        init(_ path: ConfigPath, _ message: String) { issues = [ConfigIssue(path: path.description, message: message)] }
    }

    let members: [String: JSONValue]
    /// Where the object is, for the paths of its members' issues.
    let path: ConfigPath

    init(_ value: JSONValue, at path: ConfigPath) throws(Refusal) {
        guard case .object(let members) = value else { throw Self.mismatch("an object", value, path) }
        self.members = members
        self.path = path
    }

    /// The member, when present and not null (what `decodeIfPresent` treats as absent).
    func optional(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func required(_ key: String) throws(Refusal) -> JSONValue {
        guard let value = members[key] else { throw missing(key) }
        return value
    }

    /// A required member is absent: said with the member standing in its place when one is a near miss, so a
    /// misspelt `priorty` is reported by its own name, not only as a missing `priority`.
    func missing(_ key: String) -> Refusal { Self.missing(key, among: members, at: path) }

    static func missing(_ key: String, among members: [String: JSONValue], at path: ConfigPath) -> Refusal {
        guard let nearMiss = ConfigValidator.nearest(to: key, in: members.keys.filter { $0 != key }) else {
            return Refusal(path.key(key), "missing required key")
        }
        return Refusal(path.key(key), "missing required key; the object has \"\(nearMiss)\" (\(path.key(nearMiss))): a misspelling of \"\(key)\"?")
    }

    func string(_ key: String) throws(Refusal) -> String { try Self.string(try required(key), at: path.key(key)) }
    func optionalString(_ key: String) throws(Refusal) -> String? {
        try optional(key).map { (value) throws(Refusal) in try Self.string(value, at: path.key(key)) }
    }
    func optionalBool(_ key: String) throws(Refusal) -> Bool? {
        try optional(key).map { (value) throws(Refusal) in try Self.bool(value, at: path.key(key)) }
    }

    /// A member of a type this reader does not spell out, through its `Decodable` conformance over the tree.
    func optionalDecoded<T: Decodable>(_ type: T.Type, _ key: String) throws(Refusal) -> T? {
        try optional(key).map { (value) throws(Refusal) in try Self.decoded(type, value, at: path.key(key)) }
    }

    // MARK: Values

    static func mismatch(_ expected: String, _ value: JSONValue, _ path: ConfigPath) -> Refusal {
        Refusal(path, "expected \(expected), found \(value.typeName)")
    }

    static func string(_ value: JSONValue, at path: @autoclosure () -> ConfigPath) throws(Refusal) -> String {
        guard case .string(let text) = value else { throw mismatch("a string", value, path()) }
        return text
    }

    static func int(_ value: JSONValue, at path: @autoclosure () -> ConfigPath) throws(Refusal) -> Int {
        guard let number = value.intValue else { throw mismatch("an integer", value, path()) }
        return number
    }

    static func double(_ value: JSONValue, at path: @autoclosure () -> ConfigPath) throws(Refusal) -> Double {
        guard let number = value.doubleValue else { throw mismatch("a number", value, path()) }
        return number
    }

    static func bool(_ value: JSONValue, at path: @autoclosure () -> ConfigPath) throws(Refusal) -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("a boolean", value, path()) }
        return flag
    }

    static func strings(_ value: JSONValue, at path: @autoclosure () -> ConfigPath) throws(Refusal) -> [String] {
        guard case .array(let elements) = value else { throw mismatch("an array", value, path()) }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() { result.append(try string(element, at: path().index(index))) }
        return result
    }

    /// Every member of the object `value`, each read by `read` at its path; the issues of every member that fails
    /// are reported together. `mapValues` keeps the object's hash table layout: no key is hashed again.
    static func map<T>(
        _ value: JSONValue, at path: ConfigPath, _ read: (JSONValue, ConfigPath) throws(Refusal) -> T
    ) throws(Refusal) -> [String: T] {
        guard case .object(let members) = value else { throw mismatch("an object", value, path) }
        do {
            return try members.mapValues { member throws(Refusal) in try read(member, path) }
        } catch {
            // Read again one by one, in key order, to find every member at fault by name.
            var issues: [ConfigIssue] = []
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                do { _ = try read(member, path.key(key)) } catch { issues += error.issues }
            }
            throw Refusal(issues)
        }
    }

    static func decoded<T: Decodable>(_ type: T.Type, _ value: JSONValue, at path: ConfigPath) throws(Refusal) -> T {
        do {
            return try JSONValueDecoder().decode(type, from: value)
        } catch {
            throw Refusal([ConfigValidator.issue(from: error, under: path)])
        }
    }
}
