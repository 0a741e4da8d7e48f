public import HybridCore
import Synchronization

/// A `RouterCache` in memory: least-recently-used eviction beyond `capacity`, entries expire `ttl` after storing.
///
/// Lookups and stores are O(1) under a lock (no actor hop), so a cache hit costs a few microseconds.
/// Lost when the process exits.
public final class InMemoryRouterCache: RouterCache {
    private struct Node {
        var key: RouterCacheKey
        var response: GenerationResponse
        var expires: ContinuousClock.Instant
        var previous: Int?
        var next: Int?
    }

    /// Entries in a slab linked most-recent first; `index` maps keys to slab slots.
    private struct State {
        var nodes: [Node] = []
        var free: [Int] = []
        var index: [RouterCacheKey: Int] = [:]
        var head: Int?
        var tail: Int?

        mutating func unlink(_ i: Int) {
            let p = nodes[i].previous
            let n = nodes[i].next
            if let p { nodes[p].next = n } else { head = n }
            if let n { nodes[n].previous = p } else { tail = p }
            nodes[i].previous = nil
            nodes[i].next = nil
        }

        mutating func pushFront(_ i: Int) {
            nodes[i].next = head
            nodes[i].previous = nil
            if let head { nodes[head].previous = i }
            head = i
            if tail == nil { tail = i }
        }

        mutating func remove(_ i: Int) {
            unlink(i)
            index[nodes[i].key] = nil
            free.append(i)
        }
    }

    /// Most entries kept.
    let capacity: Int
    /// How long an entry is served after it was stored.
    let ttl: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    /// - Parameters:
    ///   - capacity: entries kept (at least 1); the least recently used goes first.
    ///   - ttl: time an entry stays valid.
    ///   - now: the clock; pass the router clock's `now` in tests that jump ahead.
    public init(
        capacity: Int = 256, ttl: Duration = .seconds(600),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.capacity = max(1, capacity)
        self.ttl = ttl
        self.now = now
    }

    /// Entries currently held (expired ones included until they are looked up or evicted).
    var count: Int { state.withLock { $0.index.count } }

    public func response(for key: RouterCacheKey) async -> GenerationResponse? {
        let instant = now()
        return state.withLock { state -> GenerationResponse? in
            guard let i = state.index[key] else { return nil }
            guard state.nodes[i].expires > instant else {
                state.remove(i)
                return nil
            }
            state.unlink(i)
            state.pushFront(i)
            return state.nodes[i].response
        }
    }

    public func store(_ response: GenerationResponse, for key: RouterCacheKey) async {
        let expires = now() + ttl
        state.withLock { state in
            if let i = state.index[key] {
                state.nodes[i].response = response
                state.nodes[i].expires = expires
                state.unlink(i)
                state.pushFront(i)
                return
            }
            if state.index.count >= capacity, let oldest = state.tail { state.remove(oldest) }
            let node = Node(key: key, response: response, expires: expires, previous: nil, next: nil)
            let i: Int
            if let slot = state.free.popLast() {
                state.nodes[slot] = node
                i = slot
            } else {
                state.nodes.append(node)
                i = state.nodes.count - 1
            }
            state.index[key] = i
            state.pushFront(i)
        }
    }
}
