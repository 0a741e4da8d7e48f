// The system zlib (Linux: zlib1g-dev; Apple platforms: in the SDK), for gzip request bodies in HybridEvents.
#include <zlib.h>

// deflateInit2 is a macro, which Swift cannot call: this starts a gzip (not raw zlib) stream.
static inline int hybrid_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// inflateInit2 is a macro too: this reads gzip or zlib streams (header detected automatically).
static inline int hybrid_inflate_init_auto(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}
