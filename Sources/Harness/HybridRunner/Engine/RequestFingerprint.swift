import HybridCore

/// The response-cache key: a SHA-256 over the model id and everything in the request that can change the output
/// (`GenerationRequest.cacheIdentity`, which leaves the deadline out), and the repeat index.
///
/// Repeats are separate draws of the same request: keyed alike, `--cache` would serve repeat 2 from repeat 1's
/// stored answer and the spread the repeats exist to measure would vanish. Repeat k of a re-run still reuses repeat
/// k of the run before. Repeat 0 keeps the key it always had, so caches written before stay valid.
enum RequestFingerprint {
    static func hash(modelID: String, request: GenerationRequest, repeatIndex: Int = 0) -> String {
        let draw = repeatIndex == 0 ? "" : "\u{0}repeat:\(repeatIndex)"
        return ContentHash.hex(of: String(modelID.utf8.count) + ":" + modelID + request.cacheIdentity + draw)
    }
}
