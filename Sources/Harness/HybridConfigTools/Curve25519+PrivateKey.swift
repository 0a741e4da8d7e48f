// Signing is the harness's job (`hybrid config publish`); an app only verifies. So the Linux stand-in for CryptoKit's
// `Curve25519.Signing.PrivateKey` lives here rather than in HybridCrypto, which every app links. On Apple platforms
// HybridCrypto re-exports CryptoKit, whose own private key is used.
#if !canImport(CryptoKit)
package import Foundation
package import HybridCrypto
import CLibCrypto

extension Curve25519.Signing {
    /// An Ed25519 private key, as CryptoKit's.
    package struct PrivateKey: Sendable {
        /// The 32 raw bytes (the seed).
        package let rawRepresentation: Data

        /// A new random key.
        package init() {
            var raw = Data(count: 32)
            let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil)
            var key: OpaquePointer?
            if EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key {
                var length = 32
                raw.withUnsafeMutableBytes { bytes in
                    _ = EVP_PKEY_get_raw_private_key(key, bytes.bindMemory(to: UInt8.self).baseAddress, &length)
                }
                EVP_PKEY_free(key)
            }
            EVP_PKEY_CTX_free(context)
            rawRepresentation = raw
        }

        /// The key with raw bytes `data`; throws unless they are 32 bytes libcrypto accepts.
        package init(rawRepresentation data: some DataProtocol) throws {
            let raw = Data(data)
            guard raw.count == 32, let key = Self.key(raw) else {
                throw SigningKeyError(description: "an Ed25519 private key is 32 bytes, found \(raw.count)")
            }
            EVP_PKEY_free(key)
            rawRepresentation = raw
        }

        /// The matching public key.
        package var publicKey: PublicKey {
            var raw = Data(count: 32)
            if let key = Self.key(rawRepresentation) {
                var length = 32
                raw.withUnsafeMutableBytes { bytes in
                    _ = EVP_PKEY_get_raw_public_key(key, bytes.bindMemory(to: UInt8.self).baseAddress, &length)
                }
                EVP_PKEY_free(key)
            }
            return PublicKey(derived: raw)
        }

        /// The 64-byte Ed25519 signature of `data`.
        package func signature(for data: some DataProtocol) throws -> Data {
            guard let key = Self.key(rawRepresentation), let context = EVP_MD_CTX_new() else {
                throw SigningKeyError(description: "libcrypto could not load the key")
            }
            defer {
                EVP_MD_CTX_free(context)
                EVP_PKEY_free(key)
            }
            let message = [UInt8](data)
            var signature = [UInt8](repeating: 0, count: 64)
            var length = 64
            guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
                EVP_DigestSign(context, &signature, &length, message, message.count) == 1
            else { throw SigningKeyError(description: "libcrypto could not sign") }
            return Data(signature.prefix(length))
        }

        static func key(_ raw: Data) -> OpaquePointer? {
            raw.withUnsafeBytes { bytes in
                EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            }
        }
    }
}

/// A private key that is not 32 bytes libcrypto accepts, or a signing failure.
struct SigningKeyError: Error, CustomStringConvertible {
    let description: String
}
#endif
