import CZlib
import Foundation

/// Decompression of `Content-Encoding: gzip` bodies with the system zlib, bounded so a small body cannot expand
/// into gigabytes (a "zip bomb").
enum Gzip {
    static func decompress(_ data: Data, limit: Int) throws(CollectError) -> Data {
        var stream = z_stream()
        // 15 window bits + 16: expect a gzip header and trailer (zlib manual, inflateInit2).
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .unreadable("gzip: cannot initialise zlib")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = [UInt8](data)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    output.append(target.baseAddress!, count: target.count - Int(stream.avail_out))
                }
            } while status == Z_OK && output.count <= limit
        }
        guard output.count <= limit else { throw .tooLarge(limit: limit) }
        guard status == Z_STREAM_END else { throw .unreadable("gzip: body is not complete gzip data (zlib status \(status))") }
        return output
    }
}
