import Foundation
import HybridCrypto

/// Deterministic assignment of an install to a rollout arm.
///
/// The bucket is the first 8 bytes of SHA-256(`seed:feature:installId`) modulo 10,000, so each bucket is 0.01 %
/// of installs, the same id always lands in the same bucket (across launches and platforms), and experiments
/// with different seeds split installs independently.
package enum RolloutBucketing {
    /// Buckets per 100 %.
    static let bucketCount = 10_000

    /// The bucket (0..<10,000) of `installId` for `feature` under `seed`.
    package static func bucket(seed: String, feature: String, installId: String) -> Int {
        let digest = SHA256.hash(data: Data("\(seed):\(feature):\(installId)".utf8))
        var value: UInt64 = 0
        for byte in digest.prefix(8) { value = value << 8 | UInt64(byte) }
        return Int(value % UInt64(bucketCount))
    }

    /// Buckets covered by `percentage` (0–100, two decimals).
    static func threshold(percentage: Double) -> Int {
        Int((min(max(percentage, 0), 100) * 100).rounded())
    }

    /// The arm `installId` falls in, or nil for the feature's defaults. Arms take consecutive bucket ranges.
    static func arm(for installId: String, feature: String, rollout: RolloutConfig) -> RolloutArm? {
        let b = bucket(seed: rollout.seed, feature: feature, installId: installId)
        var upper = 0
        for arm in rollout.arms {
            upper += threshold(percentage: arm.percentage)
            if b < upper { return arm }
        }
        return nil
    }
}
