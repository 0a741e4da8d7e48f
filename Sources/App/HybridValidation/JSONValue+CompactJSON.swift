extension JSONValue {
    /// JSON text with object keys sorted and no whitespace: equal values always give equal text, so it can be
    /// hashed to name content (cache keys).
    package var canonicalJSON: String {
        var writer = JSONTextWriter()
        writer.value(self)
        return writer.text
    }

    /// Compact JSON text for messages, cut to about `limit` characters with `…` so a huge model output
    /// cannot flood a report.
    func compactJSON(limit: Int = 60) -> String {
        var out = ""
        write(to: &out, limit: limit)
        if out.count > limit, limit < .max {
            return String(out.prefix(max(limit - 1, 1))) + "…"
        }
        return out
    }

    private func write(to out: inout String, limit: Int) {
        if limit < .max, out.count > limit { return }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += Self.formatNumber(d)
        case .string(let s): Self.writeQuoted(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out, limit: limit)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                Self.writeQuoted(key, to: &out)
                out += ":"
                members[key]?.write(to: &out, limit: limit)
            }
            out += "}"
        }
    }

    /// Whole doubles print without `.0` when they are exactly representable integers, as users wrote them.
    static func formatNumber(_ d: Double) -> String {
        if d.isFinite, d.rounded() == d, abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }

    /// Quoted and escaped by ``JSONTextWriter/string(_:)``, the one escaper of the core, so messages and canonical
    /// text quote alike.
    private static func writeQuoted(_ s: String, to out: inout String) {
        var writer = JSONTextWriter(capacity: s.utf8.count + 2)
        writer.string(s)
        out += writer.text
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text (keys sorted), so `print(value)` shows JSON, not the enum's cases.
    public var description: String { canonicalJSON }
}
