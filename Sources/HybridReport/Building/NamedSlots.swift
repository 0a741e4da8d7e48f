/// Values keyed by the few names one arm's results repeat (constraint names, scorers), kept in first-seen order and
/// found by a linear scan: with a handful of names and the store handing out one `String` per distinct value, that
/// is a comparison of equal strings per result where a dictionary hashed every name of every result.
struct NamedSlots<Value> {
    private(set) var names: [String] = []
    private(set) var values: [Value] = []

    /// Changes the value for `name`, starting from `initial` for a name not seen before.
    mutating func update(_ name: String, initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        let index: Int
        if let found = names.firstIndex(of: name) {
            index = found
        } else {
            names.append(name)
            values.append(initial())
            index = values.count - 1
        }
        change(&values[index])
    }

    /// The values by name, each passed through `transform`.
    func dictionary<T>(_ transform: (Value) -> T) -> [String: T] {
        Dictionary(uniqueKeysWithValues: zip(names, values.map(transform)))
    }
}
