#if canImport(Glibc)
import Glibc
#endif

/// glibc malloc settings for the CLI, applied before any thread starts (issue #10: `hybrid eval` under 60 MB).
///
/// glibc gives every thread that contends for the allocator an arena of its own (up to eight per core), and each
/// keeps the memory freed into it; the eval's threads (the cooperative pool, curl's loop, SQLite's writer) held
/// 4–5 MB that way at 20,000 samples. A fixed mmap threshold also stops glibc from raising it after large frees,
/// which moves big buffers onto the heap where they fragment. One arena cost no measurable speed here: the threads
/// allocate little at once. The `MALLOC_*` environment variables still win.
enum MemoryTuning {
    static func apply() {
        #if canImport(Glibc)
        // Swift's Glibc module leaves out <malloc.h>; `mallopt` and its parameters (malloc.h: M_TRIM_THRESHOLD -1,
        // M_MMAP_THRESHOLD -3, M_ARENA_MAX -8) are part of glibc's stable ABI.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        if getenv("MALLOC_ARENA_MAX") == nil { _ = mallopt(-8, 1) }
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { _ = mallopt(-3, 128 * 1024) }
        if getenv("MALLOC_TRIM_THRESHOLD_") == nil { _ = mallopt(-1, 128 * 1024) }
        #endif
    }
}
