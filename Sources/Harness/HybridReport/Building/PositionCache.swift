/// Maps the names a stream of results repeats (features, arm ids) to positions in an array of accumulators,
/// guessing before hashing: results come grouped by case with the arms in a fixed order, or grouped by arm, so the
/// next name is nearly always the previous one's or the one after it. A hit costs a string comparison of two
/// equal strings (the store hands out one `String` per distinct value) instead of a dictionary lookup per result.
struct PositionCache {
    /// Every name seen, with its position.
    private(set) var all: [String: Int] = [:]
    /// The names by position, for the guesses.
    private var names: [String] = []
    private var last = 0

    /// The position of `name`; `insert` appends a new accumulator for a name not seen before and returns its
    /// position.
    mutating func position(of name: String, insert: () -> Int) -> Int {
        if last < names.count, names[last] == name { return last }
        let next = last + 1 < names.count ? last + 1 : 0
        if next < names.count, names[next] == name {
            last = next
            return next
        }
        if let known = all[name] {
            last = known
            return known
        }
        let position = insert()
        all[name] = position
        names.append(name)
        last = position
        return position
    }
}
