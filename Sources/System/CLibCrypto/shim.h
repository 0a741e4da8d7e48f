// The system's OpenSSL libcrypto (Debian's libssl-dev, already there for libcurl): SHA-256 and Ed25519 on Linux,
// where swift-crypto would compile its own BoringSSL (about 3 minutes of every clean build). Apple platforms use
// CryptoKit instead (HybridCrypto picks one at compile time).
#include <openssl/evp.h>
