public import HybridConfig
public import Foundation
import HybridCrypto

/// Signs config payloads with an Ed25519 private key (for `hybrid config sign` and tests; apps only verify).
public struct ConfigSigner: Sendable {
    // Raw bytes for the same Sendable reason as the verifier.
    private let rawKey: Data
    private var key: Curve25519.Signing.PrivateKey {
        get throws(ConfigError) {
            do {
                return try Curve25519.Signing.PrivateKey(rawRepresentation: rawKey)
            } catch {
                throw .invalidKey(reason: "private key unusable: \(error)")
            }
        }
    }

    /// A signer for the base64 raw (32-byte) private key.
    public init(privateKeyBase64: String) throws(ConfigError) {
        guard let raw = Data(base64Encoded: privateKeyBase64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .invalidKey(reason: "private key is not base64")
        }
        do {
            _ = try Curve25519.Signing.PrivateKey(rawRepresentation: raw)
            rawKey = raw
        } catch {
            throw .invalidKey(reason: "private key must be 32 bytes of Ed25519 raw representation, found \(raw.count) bytes")
        }
    }

    /// A signer for the key in the file at `path`.
    public init(privateKeyFile path: String) throws(ConfigError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .fileAccess(path: path, reason: "cannot read the private key file")
        }
        try self.init(privateKeyBase64: String(decoding: data, as: UTF8.self))
    }

    /// A new random key pair.
    public static func generate() -> ConfigSigner { ConfigSigner(rawKey: Curve25519.Signing.PrivateKey().rawRepresentation) }

    private init(rawKey: Data) { self.rawKey = rawKey }

    /// The base64 raw private key (keep it secret: write it to a file with mode 0600).
    public var privateKeyBase64: String { rawKey.base64EncodedString() }
    /// The base64 raw public key to ship with apps.
    public var publicKeyBase64: String {
        ((try? key)?.publicKey.rawRepresentation ?? Data()).base64EncodedString()
    }

    /// The base64 signature of exactly `payload`.
    public func sign(_ payload: Data) throws(ConfigError) -> String {
        let key = try self.key
        do {
            return try key.signature(for: payload).base64EncodedString()
        } catch {
            throw .invalidKey(reason: "signing failed: \(error)")
        }
    }
}
