extension Array where Element == Double {
    /// The middle value (the upper one of two for an even count), or 0 for no values: the benchmarks compare medians
    /// of repeated runs, which one run slowed by a neighbour on 2 shared cores does not move.
    var median: Double {
        isEmpty ? 0 : sorted()[count / 2]
    }
}
