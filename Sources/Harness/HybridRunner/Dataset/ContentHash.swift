import HybridCrypto
public import Foundation

/// SHA-256 hex digests that name content (datasets, rendered prompts, configs) in stored results.
public enum ContentHash {
    /// Lowercase hex SHA-256 of `data`.
    public static func hex(of data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// Lowercase hex SHA-256 of the UTF-8 bytes of `string`.
    public static func hex(of string: String) -> String {
        var string = string
        // Contiguous UTF-8 is hashed in place; only a bridged or lazily stored string is copied first.
        return string.withUTF8 { hex(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
    }

    /// Hex digits written straight into the string's storage: `String(format:)` per byte was the largest single
    /// cost of a fast eval (two hashes per sample).
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits: StaticString = "0123456789abcdef"
        return digest.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
                digits.withUTF8Buffer { table in
                    for (index, byte) in bytes.enumerated() {
                        buffer[2 * index] = table[Int(byte >> 4)]
                        buffer[2 * index + 1] = table[Int(byte & 0x0F)]
                    }
                }
                return bytes.count * 2
            }
        }
    }
}
