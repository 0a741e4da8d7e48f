import Tracing

/// Span attributes gathered into one dictionary sized up front, absent values skipped: `SpanAttributes`' subscript
/// takes its value as an existential and hashes the key even to store nil, and its dictionary grows from empty, which
/// together cost more than the rest of a request's telemetry (`hybrid-bench router`).
struct AttributeList {
    private var storage: [String: SpanAttribute] = [:]

    init(capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    var attributes: SpanAttributes { SpanAttributes(storage) }

    mutating func add(_ name: String, _ value: String?) {
        if let value { storage[name] = .string(value) }
    }

    mutating func add(_ name: String, _ value: Int?) {
        if let value { storage[name] = .int64(Int64(value)) }
    }

    mutating func add(_ name: String, _ value: Double?) {
        if let value { storage[name] = .double(value) }
    }

    mutating func add(_ name: String, _ value: Bool?) {
        if let value { storage[name] = .bool(value) }
    }

    mutating func add(_ name: String, _ value: [String]?) {
        if let value { storage[name] = .stringArray(value) }
    }

    mutating func set(_ name: String, _ value: SpanAttribute) {
        storage[name] = value
    }
}
