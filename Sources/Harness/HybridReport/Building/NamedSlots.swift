/// Values keyed by the few names one arm's results repeat (constraint names, scorers), kept in first-seen order and
/// found by a linear scan, once per name and page of ``MeasureColumns`` (the caller keeps each text code's slot).
struct NamedSlots<Value> {
    private(set) var names: [String] = []
    private(set) var values: [Value] = []

    /// The slot of `name`, starting from `initial` for a name not seen before; callers keep it per text code so
    /// the name is looked up once per page, not once per result.
    mutating func slot(_ name: String, initial: @autoclosure () -> Value) -> Int {
        if let found = names.firstIndex(of: name) { return found }
        names.append(name)
        values.append(initial())
        return values.count - 1
    }

    /// Changes the value in `slot` (from ``slot(_:initial:)``) in place.
    mutating func update(slot: Int, _ change: (inout Value) -> Void) {
        change(&values[slot])
    }

    /// The values by name, each passed through `transform`.
    func dictionary<T>(_ transform: (Value) -> T) -> [String: T] {
        Dictionary(uniqueKeysWithValues: zip(names, values.map(transform)))
    }
}
