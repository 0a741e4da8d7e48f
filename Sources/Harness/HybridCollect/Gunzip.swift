import CZlib
package import Foundation

/// gzip (RFC 1952) and zlib decompression over the system zlib, for `Content-Encoding: gzip` event batches.
package enum Gunzip {
    /// Why `inflate(_:limit:)` gave no bytes.
    package enum DecompressionFailure: Error, Sendable, Equatable {
        /// The bytes are not a complete gzip (or zlib) stream.
        case notCompressed
        /// The stream would inflate past the limit.
        case tooLarge
    }

    /// The bytes of a gzip (or zlib) stream; throws which of the two ways it failed, so a server can answer 413 for
    /// a body that inflates past `limit` and 400 for one that is not compressed data.
    package static func inflate(_ data: Data, limit: Int) throws(DecompressionFailure) -> Data {
        var stream = z_stream()
        guard hybrid_inflate_init_auto(&stream) == Z_OK else { throw .notCompressed }
        defer { inflateEnd(&stream) }
        var input = data
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let outcome = input.withUnsafeMutableBytes { (inBytes: UnsafeMutableRawBufferPointer) -> DecompressionFailure? in
            stream.next_in = inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_in = uInt(inBytes.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return .tooLarge }
                if status == Z_STREAM_END { return nil }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return .notCompressed }
            }
        }
        if let outcome { throw outcome }
        return output
    }
}
