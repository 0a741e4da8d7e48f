import CZlib
import Foundation

/// gzip (RFC 1952) compression over the system zlib, for `Content-Encoding: gzip` upload bodies (the collector
/// inflates them: `Gunzip`).
enum Gzip {
    /// `data` as one gzip member; nil only if zlib fails (out of memory).
    static func compress(_ data: Data, level: Int32 = 6) -> Data? {
        var stream = z_stream()
        guard hybrid_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var output = Data(count: bound)
        var input = data
        let status = input.withUnsafeMutableBytes { (inBytes: UnsafeMutableRawBufferPointer) -> Int32 in
            output.withUnsafeMutableBytes { (outBytes: UnsafeMutableRawBufferPointer) -> Int32 in
                stream.next_in = inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(inBytes.count)
                stream.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(outBytes.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.count = Int(stream.total_out)
        return output
    }
}
