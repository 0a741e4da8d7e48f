extension JSONValue {
    /// Equality as JSON Schema defines it for `enum` and `const`: numbers compare by value, so `1` equals `1.0`.
    ///
    /// Derived `==` keeps `.int(1)` and `.double(1.0)` apart, which is right for round-tripping but wrong for
    /// comparing a model's output with an expected value.
    package func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int, .double), (.double, .int), (.double, .double):
            guard let a = doubleValue, let b = other.doubleValue else { return false }
            return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in b[key].map { value.isEquivalent(to: $0) } ?? false }
        default:
            return false
        }
    }
}

extension JSONValue {
    /// JSON Schema's equality (`enum`, `const`, `uniqueItems`): like ``isEquivalent(to:)``, but strings and object
    /// keys compare by Unicode code points, because Swift's `==` treats canonically equivalent strings (`é` and
    /// `e` + U+0301) as equal and the specification does not.
    func isSchemaEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)):
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSchemaEqual(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in
                b.exactMember(key).map { value.isSchemaEqual(to: $0) } ?? false
            }
        default:
            return isEquivalent(to: other)
        }
    }
}

extension Dictionary where Key == String {
    /// The value stored under exactly `key`'s code points; `self[key]` would also find a canonically equivalent key.
    func exactMember(_ key: String) -> Value? {
        guard let index = index(forKey: key), self[index].key.unicodeScalars.elementsEqual(key.unicodeScalars) else {
            return nil
        }
        return self[index].value
    }
}
