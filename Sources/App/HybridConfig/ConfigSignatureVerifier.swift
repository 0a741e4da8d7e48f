package import Foundation
import HybridCrypto

/// Verifies Ed25519 signatures over the exact bytes of a config payload.
///
/// Keys and signatures are base64 of the raw representation (32-byte public key, 64-byte signature), so a key file
/// is one line of text. When the loader has a verifier, an unsigned payload is rejected like a tampered one.
public struct ConfigSignatureVerifier: Sendable {
    // Raw bytes, not the key object: a key object holds a libcrypto handle on Linux. Rebuilding costs microseconds.
    private let rawKey: Data

    /// A verifier for the base64 raw public key `publicKeyBase64`.
    public init(publicKeyBase64: String) throws(ConfigError) {
        guard let raw = Data(base64Encoded: publicKeyBase64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .invalidKey(reason: "public key is not base64")
        }
        do {
            _ = try Curve25519.Signing.PublicKey(rawRepresentation: raw)
            rawKey = raw
        } catch {
            throw .invalidKey(reason: "public key must be 32 bytes of Ed25519 raw representation, found \(raw.count) bytes")
        }
    }

    /// A verifier for the key in the file at `path`.
    public init(publicKeyFile path: String) throws(ConfigError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .fileAccess(path: path, reason: "cannot read the public key file")
        }
        try self.init(publicKeyBase64: String(decoding: data, as: UTF8.self))
    }

    /// The base64 raw public key.
    var publicKeyBase64: String { rawKey.base64EncodedString() }

    /// Throws unless `signature` (base64) is a valid signature of `payload`; `source` names it in errors.
    package func verify(_ payload: Data, signature: String?, source: String) throws(ConfigError) {
        guard let signature, !signature.isEmpty else { throw .signatureMissing(source: source) }
        guard let raw = Data(base64Encoded: signature.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .signatureInvalid(source: source, reason: "signature is not base64")
        }
        guard raw.count == 64 else {
            throw .signatureInvalid(source: source, reason: "signature must be 64 bytes, found \(raw.count)")
        }
        // `init` accepted these bytes with the same initializer, so this only fails if the crypto library changes its mind.
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawKey) else {
            throw .invalidKey(reason: "public key no longer accepted by the crypto library")
        }
        guard key.isValidSignature(raw, for: payload) else {
            throw .signatureInvalid(source: source, reason: "signature does not match the payload (tampered payload or a different key)")
        }
    }
}
