// The system zlib (Linux: zlib1g-dev; Apple platforms: in the SDK), for gzip request bodies in HybridEvents.
#include <zlib.h>
