// SHA-256 and Ed25519 with CryptoKit's names: CryptoKit itself on Apple platforms, the system's OpenSSL libcrypto on
// Linux. The package used swift-crypto for these two algorithms, which on Linux compiles a BoringSSL of its own into
// every clean build; the system library was already linked for libcurl.
#if canImport(CryptoKit)
@_exported public import CryptoKit
#else
package import Foundation
import CLibCrypto

/// SHA-256, as CryptoKit's `SHA256`: one-shot `hash(data:)`, or `update` then `finalize`.
package struct SHA256: Sendable {
    /// A 32-byte digest.
    package struct Digest: Sendable, Hashable, Sequence {
        let bytes: [UInt8]

        package func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

        /// The digest's bytes.
        package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }
    }

    private var context: HashContext

    /// A hasher with nothing hashed yet.
    package init() {
        context = HashContext()
    }

    /// Adds `data`.
    package mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// Adds the bytes of `buffer`.
    package mutating func update(bufferPointer buffer: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        _ = EVP_DigestUpdate(context.handle, buffer.baseAddress, buffer.count)
    }

    /// The digest of everything added.
    package func finalize() -> Digest {
        let copy = context.copy()
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        _ = EVP_DigestFinal_ex(copy.handle, &out, &length)
        return Digest(bytes: out)
    }

    /// The digest of `data`.
    package static func hash(data: some DataProtocol) -> Digest {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

/// An `EVP_MD_CTX` owned by one hasher (copied on write).
private final class HashContext: @unchecked Sendable {
    let handle: OpaquePointer

    init() {
        handle = EVP_MD_CTX_new()
        _ = EVP_DigestInit_ex(handle, EVP_sha256(), nil)
    }

    private init(copying other: HashContext) {
        handle = EVP_MD_CTX_new()
        _ = EVP_MD_CTX_copy_ex(handle, other.handle)
    }

    func copy() -> HashContext { HashContext(copying: self) }

    deinit { EVP_MD_CTX_free(handle) }
}

/// Ed25519, as CryptoKit's `Curve25519.Signing`.
package enum Curve25519 {
    package enum Signing {
        /// `raw` when it is 32 bytes that `load` turns into a libcrypto key.
        static func checked(_ raw: Data, kind: String, load: (Data) -> OpaquePointer?) throws -> Data {
            guard raw.count == 32, let key = load(raw) else {
                throw KeyError(description: "an Ed25519 \(kind) key is 32 bytes, found \(raw.count)")
            }
            EVP_PKEY_free(key)
            return raw
        }

        /// A key that is not a 32-byte Ed25519 key, or a failure of libcrypto.
        struct KeyError: Error, CustomStringConvertible {
            let description: String
        }

        /// An Ed25519 public key.
        package struct PublicKey: Sendable {
            /// The 32 raw bytes.
            package let rawRepresentation: Data

            /// The key with raw bytes `data`; throws unless they are 32 bytes libcrypto accepts.
            package init(rawRepresentation data: some DataProtocol) throws {
                rawRepresentation = try Signing.checked(Data(data), kind: "public", load: Self.key)
            }

            /// Bytes libcrypto itself derived (by the harness's private key, HybridConfigTools).
            package init(derived raw: Data) {
                rawRepresentation = raw
            }

            /// True when `signature` is this key's signature of `data`.
            package func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
                guard let key = Self.key(rawRepresentation), let context = EVP_MD_CTX_new() else { return false }
                defer {
                    EVP_MD_CTX_free(context)
                    EVP_PKEY_free(key)
                }
                guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
                let signature = [UInt8](signature)
                let message = [UInt8](data)
                return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
            }

            static func key(_ raw: Data) -> OpaquePointer? {
                raw.withUnsafeBytes { bytes in
                    EVP_PKEY_new_raw_public_key(
                        EVP_PKEY_ED25519, nil, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
                }
            }
        }
    }
}
#endif
