import Foundation
import HybridConfigTools
import HybridCrypto
import Testing

/// SHA-256 and Ed25519 as HybridCrypto provides them (libcrypto on Linux, CryptoKit on Apple platforms), against the
/// published vectors: FIPS 180-2 appendix B.1 and RFC 8032 §7.1 test 1.
@Suite("Platform crypto")
struct PlatformCryptoTests {
    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func bytes(_ hex: String) -> Data {
        Data(stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        })
    }

    @Test func sha256MatchesFIPS180() {
        #expect(Self.hex(SHA256.hash(data: Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var hasher = SHA256()
        hasher.update(data: Data("a".utf8))
        hasher.update(data: Data("bc".utf8))
        #expect(Self.hex(hasher.finalize()) == Self.hex(SHA256.hash(data: Data("abc".utf8))))
    }

    @Test func ed25519MatchesRFC8032() throws {
        let key = try Curve25519.Signing.PrivateKey(
            rawRepresentation: Self.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        #expect(Self.hex(key.publicKey.rawRepresentation) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try key.signature(for: Data())
        #expect(Self.hex(signature) == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        #expect(key.publicKey.isValidSignature(signature, for: Data()))
        #expect(!key.publicKey.isValidSignature(signature, for: Data("x".utf8)))
        let fresh = Curve25519.Signing.PrivateKey()
        #expect(fresh.rawRepresentation != key.rawRepresentation)
        #expect(fresh.publicKey.isValidSignature(try fresh.signature(for: Data("y".utf8)), for: Data("y".utf8)))
        #expect(throws: (any Error).self) { try Curve25519.Signing.PublicKey(rawRepresentation: Data(count: 31)) }
    }
}
