package import Foundation

/// One member of a JSON object type: its name, and how its value is read into and written from the Swift value.
/// Built by ``JSONMember/member(_:_:)`` from a key path, so a member is one line of its type's table.
package struct JSONMember<Root>: Sendable {
    /// The member's name on the wire.
    package let name: StaticString
    /// Whether the object is refused without it (every non-optional property).
    package let isRequired: Bool
    fileprivate let slot: JSONMemberSlot<Root>
    fileprivate let write: @Sendable (Root, inout JSONTextWriter, _ first: Bool) throws(JSONMemberError) -> Bool
}

/// How a member's value gets into the root: the common scalar types straight into the stored property at its
/// offset (no closure, no key path at run time), anything else through a closure.
private enum JSONMemberSlot<Root>: Sendable {
    case string(Int), optionalString(Int), int(Int), optionalInt(Int), double(Int), optionalDouble(Int), bool(Int)
    case other(@Sendable (inout JSONByteScanner, inout Root) throws(JSONMemberError) -> Void)
}

/// A key path, which is immutable once made, as a `Sendable` value without an existential around it.
private struct SendableKeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: WritableKeyPath<Root, Value>
}

/// Stores `value` in the stored property of `root` at byte `offset` (from `MemoryLayout.offset(of:)`).
@inline(__always)
private func store<Root, Value>(_ value: Value, at offset: Int, in root: inout Root) {
    withUnsafeMutableBytes(of: &root) { raw in
        raw.baseAddress.unsafelyUnwrapped.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee = value
    }
}

extension JSONMember {
    /// A member stored at `keyPath`; optional values may be absent and are omitted when nil.
    package static func member<Value: JSONMemberValue>(
        _ name: StaticString, _ keyPath: any WritableKeyPath<Root, Value> & Sendable
    ) -> JSONMember<Root> {
        JSONMember(
            name: name, isRequired: !Value.isOptional, slot: slot(keyPath),
            write: { (root, writer, first) throws(JSONMemberError) in
                let value = root[keyPath: keyPath]
                guard !value.isAbsentJSON else { return false }
                writer.key(name, first: first)
                try value.writeJSON(&writer)
                return true
            })
    }

    /// A member behind accessors (a property wrapper's value, which has no storage offset), read and written
    /// through them: cheaper than a key path's run-time projection.
    package static func member<Value: JSONMemberValue>(
        _ name: StaticString, get: @escaping @Sendable (Root) -> Value, set: @escaping @Sendable (inout Root, Value) -> Void
    ) -> JSONMember<Root> {
        JSONMember(
            name: name, isRequired: !Value.isOptional,
            slot: .other { (json, root) throws(JSONMemberError) in set(&root, try Value.readJSON(&json)) },
            write: { (root, writer, first) throws(JSONMemberError) in
                let value = get(root)
                guard !value.isAbsentJSON else { return false }
                writer.key(name, first: first)
                try value.writeJSON(&writer)
                return true
            })
    }

    private static func slot<Value: JSONMemberValue>(_ keyPath: any WritableKeyPath<Root, Value> & Sendable) -> JSONMemberSlot<Root> {
        let path = SendableKeyPath(keyPath: keyPath as WritableKeyPath<Root, Value>)
        guard let offset = MemoryLayout<Root>.offset(of: path.keyPath) else {
            return .other { (json, root) throws(JSONMemberError) in root[keyPath: path.keyPath] = try Value.readJSON(&json) }
        }
        switch Value.self {
        case is String.Type: return .string(offset)
        case is String?.Type: return .optionalString(offset)
        case is Int.Type: return .int(offset)
        case is Int?.Type: return .optionalInt(offset)
        case is Double.Type: return .double(offset)
        case is Double?.Type: return .optionalDouble(offset)
        case is Bool.Type: return .bool(offset)
        default: return .other { (json, root) throws(JSONMemberError) in store(try Value.readJSON(&json), at: offset, in: &root) }
        }
    }
}

/// The members of a JSON object type, in wire order: the one table its reader and its writer both use, so a new
/// field is one line here (and the round-trip and coverage tests fail until it is).
///
/// Reading is a byte reader over ``JSONByteScanner``: member names are matched without allocating (an index by
/// name length), a duplicate or missing required member is caught with a bit mask, unknown members are skipped
/// (but validated), and every error names the member's JSON path.
package struct JSONMembers<Root>: Sendable {
    package let members: [JSONMember<Root>]
    private let required: UInt64
    /// Member indexes by name length, so a name is compared with a few candidates only.
    /// Member indexes grouped by name length (`candidates[byLength[n]]` are the names n bytes long), flat so that
    /// a lookup loads no inner array.
    private let candidates: [Int]
    private let byLength: [Range<Int>]

    package init(_ members: [JSONMember<Root>]) {
        precondition(members.count <= 64, "a JSONMembers table holds at most 64 members")
        self.members = members
        var required: UInt64 = 0
        var groups = [[Int]](repeating: [], count: 1 + (members.map(\.name.utf8CodeUnitCount).max() ?? 0))
        for (index, member) in members.enumerated() {
            if member.isRequired { required |= 1 << UInt64(index) }
            groups[member.name.utf8CodeUnitCount].append(index)
        }
        self.required = required
        candidates = groups.flatMap { $0 }
        var start = 0
        byLength = groups.map { group in
            defer { start += group.count }
            return start..<(start + group.count)
        }
    }

    /// Reads one object into `root` (which holds placeholders for the required members).
    package func read(_ json: inout JSONByteScanner, into root: inout Root) throws(JSONMemberError) {
        var seen: UInt64 = 0
        guard try scanning("an object", { () throws(JSONByteScanner.Stop) in try json.openObject() }) else {
            return try checkRequired(seen)
        }
        repeat {
            guard let index = try memberIndex(&json) else {
                try scanning("a JSON value") { () throws(JSONByteScanner.Stop) in try json.skipValue() }
                continue
            }
            guard seen & (1 << UInt64(index)) == 0 else { throw JSONMemberError(path: "\(members[index].name)", "duplicate member") }
            seen |= 1 << UInt64(index)
            do {
                try read(index, &json, &root)
            } catch {
                throw error.inside("\(members[index].name)")
            }
        } while try scanning("`,` or `}`", { () throws(JSONByteScanner.Stop) in try json.continues(before: UInt8(ascii: "}")) })
        try checkRequired(seen)
    }

    @inline(__always)
    private func read(_ index: Int, _ json: inout JSONByteScanner, _ root: inout Root) throws(JSONMemberError) {
        switch members[index].slot {
        case .string(let offset): store(try String.readJSON(&json), at: offset, in: &root)
        case .optionalString(let offset): store(try String?.readJSON(&json), at: offset, in: &root)
        case .int(let offset): store(try Int.readJSON(&json), at: offset, in: &root)
        case .optionalInt(let offset): store(try Int?.readJSON(&json), at: offset, in: &root)
        case .double(let offset): store(try Double.readJSON(&json), at: offset, in: &root)
        case .optionalDouble(let offset): store(try Double?.readJSON(&json), at: offset, in: &root)
        case .bool(let offset): store(try Bool.readJSON(&json), at: offset, in: &root)
        case .other(let read): try read(&json, &root)
        }
    }

    private func checkRequired(_ seen: UInt64) throws(JSONMemberError) {
        let missing = required & ~seen
        guard missing != 0 else { return }
        throw JSONMemberError(path: "\(members[missing.trailingZeroBitCount].name)", "missing")
    }

    /// The next member name and its `:`; the index of its member, nil for a name the table does not hold.
    private func memberIndex(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Int? {
        let start = json.position
        if let key = try? json.readKey() {
            guard key.count < byLength.count else { return nil }
            for candidate in byLength[key.count] where json.matches(key, members[candidates[candidate]].name) {
                return candidates[candidate]
            }
            return nil
        }
        // A name with escapes (or not a name at all): decoded, then compared as text.
        json.position = start
        let name = try scanning("a member name") { () throws(JSONByteScanner.Stop) in
            let name = try json.readString()
            try json.expect(UInt8(ascii: ":"))
            return name
        }
        return members.firstIndex { "\($0.name)" == name }
    }

    /// Writes `root` as an object: members in table order, absent optionals omitted.
    package func write(_ root: Root, to writer: inout JSONTextWriter) throws(JSONMemberError) {
        writer.raw("{")
        var first = true
        for member in members {
            do {
                if try member.write(root, &writer, first) { first = false }
            } catch {
                throw error.inside("\(member.name)")
            }
        }
        writer.raw("}")
    }
}

/// An object type read and written through its table: ``JSONMemberValue`` for free.
package protocol JSONMemberObject: JSONMemberValue {
    /// The members, in wire order.
    static var jsonMembers: JSONMembers<Self> { get }
    /// A value whose required members the reader overwrites (every one is checked present).
    static var jsonPlaceholder: Self { get }
}

extension JSONMemberObject {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Self {
        var value = jsonPlaceholder
        try jsonMembers.read(&json, into: &value)
        return value
    }

    package func writeJSON(_ writer: inout JSONTextWriter) throws(JSONMemberError) {
        try Self.jsonMembers.write(self, to: &writer)
    }

    /// The value in `bytes`, which must hold nothing after it but white space.
    package static func readJSON(bytes: some ContiguousBytes) throws(JSONMemberError) -> Self {
        try readWhole(bytes) { (json) throws(JSONMemberError) in try readJSON(&json) }
    }

    /// The value as compact JSON.
    package func jsonBytes() throws(JSONMemberError) -> [UInt8] {
        var writer = JSONTextWriter()
        try writeJSON(&writer)
        return writer.bytes
    }
}

/// The value `read` takes from `bytes`, which must hold nothing after it but white space.
package func readWhole<Value>(
    _ bytes: some ContiguousBytes, _ read: (inout JSONByteScanner) throws(JSONMemberError) -> Value
) throws(JSONMemberError) -> Value {
    let result: Result<Value, JSONMemberError> = bytes.withUnsafeBytes { raw in
        var json = JSONByteScanner(raw.assumingMemoryBound(to: UInt8.self))
        return Result { () throws(JSONMemberError) -> Value in
            let value = try read(&json)
            json.skipWhitespace()
            guard json.atEnd else { throw JSONMemberError("unexpected text after the value") }
            return value
        }
    }
    return try result.get()
}
