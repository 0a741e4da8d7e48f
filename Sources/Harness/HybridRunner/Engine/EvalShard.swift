import HybridCrypto
import Foundation

/// One of `count` deterministic slices of a plan's (case, arm, repeat) keys, for runs split over CI jobs or machines.
///
/// A key belongs to shard `index` (1-based) when the first 8 bytes of SHA-256 of `caseID NUL armID NUL repeat`,
/// read big-endian, are `index - 1` modulo `count`. Hashing the key rather than its position keeps shards balanced
/// whatever the order of the dataset, and keeps every existing key in its shard when cases are added; the run id is
/// left out so a case lands in the same shard night after night. Anyone can recompute it (e.g. in Python:
/// `int.from_bytes(sha256(f"{case}\0{arm}\0{rep}".encode()).digest()[:8], "big") % count`).
public struct EvalShard: Sendable, Hashable, CustomStringConvertible {
    /// Which slice, from 1 to `count`.
    public let index: Int
    /// How many slices the plan is cut into.
    public let count: Int

    /// Shard `index` of `count`; throws unless `1 ≤ index ≤ count`.
    public init(index: Int, count: Int) throws(InvalidShard) {
        guard count >= 1, (1...count).contains(index) else {
            throw InvalidShard("\(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`, as `--shard` takes it.
    public init(parsing text: String) throws(InvalidShard) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            let count = Int(parts[1].trimmingCharacters(in: .whitespaces))
        else { throw InvalidShard(text) }
        try self.init(index: index, count: count)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Whether the key (case id, arm id, repeat) is in this shard.
    public func contains(caseID: String, armID: String, repeatIndex: Int) -> Bool {
        Self.bucket(caseID: caseID, armID: armID, repeatIndex: repeatIndex) % UInt64(count) == UInt64(index - 1)
    }

    /// The key's 64-bit position on the hash ring; shards take it modulo their count.
    static func bucket(caseID: String, armID: String, repeatIndex: Int) -> UInt64 {
        let digest = SHA256.hash(data: Data("\(caseID)\u{0}\(armID)\u{0}\(repeatIndex)".utf8))
        return digest.prefix(8).reduce(0) { ($0 << 8) | UInt64($1) }
    }

    /// A `--shard` value that is not `I/N` with `1 ≤ I ≤ N`.
    public struct InvalidShard: Error, CustomStringConvertible {
        /// The value given.
        public let value: String
        init(_ value: String) { self.value = value }
        public var description: String {
            "--shard takes I/N with shards numbered from 1 (1 ≤ I ≤ N), e.g. --shard 1/4 … --shard 4/4; found \"\(value)\""
        }
    }
}
