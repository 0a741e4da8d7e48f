package import Foundation

/// One member of a JSON object type: its name, and how its value is read into and written from the Swift value.
/// Built by ``JSONMember/member(_:_:)`` from a key path, so a member is one line of its type's table.
package struct JSONMember<Root>: Sendable {
    /// The member's name on the wire.
    let name: StaticString
    /// Whether the object is refused without it (every non-optional property).
    let isRequired: Bool
    fileprivate let slot: JSONMemberSlot<Root>
    /// Writes the member after a comma where one is due (``JSONTextWriter/key(_:)``), or nothing when absent.
    fileprivate let write: @Sendable (Root, inout JSONTextWriter) throws(JSONMemberError) -> Void
}

/// How a member's value gets into the root: through its key path, or a setter for a property without storage.
/// Tables once wrote scalars straight into the root's memory at `MemoryLayout.offset(of:)`; measured side by side,
/// that bought about 6 % of `hybrid ingest`'s CPU and nothing the collector's figure could tell from noise
/// (docs/benchmarks.md, "Member tables: raw offsets against key paths"), so the tables stay safe code.
private typealias JSONMemberSlot<Root> = @Sendable (inout JSONByteScanner, inout Root) throws(JSONMemberError) -> Void

/// A key path, which is immutable once made, as a `Sendable` value without an existential around it.
private struct SendableKeyPath<Root, Value>: @unchecked Sendable {
    let keyPath: WritableKeyPath<Root, Value>
}

extension JSONMember {
    /// A member stored at `keyPath`; optional values may be absent and are omitted when nil. Always inlined into
    /// the table, where `Root` and `Value` are known, so its reader and writer are compiled for them (not generic
    /// code looking up type metadata per member read).
    @inline(__always)
    package static func member<Value: JSONMemberValue>(
        _ name: StaticString, _ keyPath: any WritableKeyPath<Root, Value> & Sendable
    ) -> JSONMember<Root> {
        JSONMember(
            name: name, isRequired: !Value.isOptional, slot: slot(keyPath),
            write: { (root, writer) throws(JSONMemberError) in
                let value = root[keyPath: keyPath]
                guard !value.isAbsentJSON else { return }
                writer.key(name)
                try value.writeJSON(&writer)
            })
    }

    /// A member behind accessors (a property wrapper's value, which has no storage offset), read and written
    /// through them: cheaper than a key path's run-time projection. Inlined into the table, as above.
    @inline(__always)
    package static func member<Value: JSONMemberValue>(
        _ name: StaticString, get: @escaping @Sendable (Root) -> Value, set: @escaping @Sendable (inout Root, Value) -> Void
    ) -> JSONMember<Root> {
        JSONMember(
            name: name, isRequired: !Value.isOptional,
            slot: { (json, root) throws(JSONMemberError) in set(&root, try Value.readJSON(&json)) },
            write: { (root, writer) throws(JSONMemberError) in
                let value = get(root)
                guard !value.isAbsentJSON else { return }
                writer.key(name)
                try value.writeJSON(&writer)
            })
    }

    @inline(__always)
    private static func slot<Value: JSONMemberValue>(_ keyPath: any WritableKeyPath<Root, Value> & Sendable) -> JSONMemberSlot<Root> {
        let path = SendableKeyPath(keyPath: keyPath as WritableKeyPath<Root, Value>)
        return { (json, root) throws(JSONMemberError) in root[keyPath: path.keyPath] = try Value.readJSON(&json) }
    }
}

/// The members of a JSON object type, in wire order: the one table its reader and its writer both use, so a new
/// field is one line here (and the round-trip and coverage tests fail until it is).
///
/// Reading is a byte reader over ``JSONByteScanner``: member names are matched without allocating (a hash built
/// from the table's names, ``JSONMemberNames``), a duplicate or missing required member is caught with a bit mask,
/// unknown members are skipped (but validated), and every error names the member's JSON path.
package struct JSONMembers<Root>: Sendable {
    let members: [JSONMember<Root>]
    private let required: UInt64
    /// Each member's way into the root, apart from the members so the reader's loads stay small.
    private let slots: [JSONMemberSlot<Root>]
    /// The reader's lookup of member names (internal for its tests).
    let names: JSONMemberNames

    package init(_ members: [JSONMember<Root>]) {
        precondition(members.count <= 64, "a JSONMembers table holds at most 64 members")
        self.members = members
        required = members.indices.reduce(0) { mask, index in members[index].isRequired ? mask | 1 << UInt64(index) : mask }
        slots = members.map(\.slot)
        names = JSONMemberNames(members.map(\.name))
    }

    /// Reads one object into `root` (which holds placeholders for the required members).
    func read(_ json: inout JSONByteScanner, into root: inout Root) throws(JSONMemberError) {
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
        try slots[index](&json, &root)
    }

    private func checkRequired(_ seen: UInt64) throws(JSONMemberError) {
        let missing = required & ~seen
        guard missing != 0 else { return }
        throw JSONMemberError(path: "\(members[missing.trailingZeroBitCount].name)", "missing")
    }

    /// The next member name and its `:`; the index of its member, nil for a name the table does not hold.
    @inline(__always)
    private func memberIndex(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Int? {
        let start = json.position
        if let key = try? json.readKey() { return names.index(of: key, in: json.bytes) }
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
    func write(_ root: Root, to writer: inout JSONTextWriter) throws(JSONMemberError) {
        writer.raw("{")
        for member in members {
            do {
                try member.write(root, &writer)
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
    func jsonBytes() throws(JSONMemberError) -> [UInt8] {
        var writer = JSONTextWriter()
        try writeJSON(&writer)
        return writer.bytes
    }
}

/// The value `read` takes from `bytes`, which must hold nothing after it but white space.
@inline(__always)
func readWhole<Value>(
    _ bytes: some ContiguousBytes, _ read: (inout JSONByteScanner) throws(JSONMemberError) -> Value
) throws(JSONMemberError) -> Value {
    let result: Result<Value, JSONMemberError> = bytes.withUnsafeBytes { raw in
        Result { () throws(JSONMemberError) -> Value in try readWhole(raw, read) }
    }
    return try result.get()
}

/// The same over bytes in place: inlined into each caller, so a reader of a known type runs with no generic
/// metadata to look up and no value to copy through a `Result`.
@inline(__always)
package func readWhole<Value>(
    _ raw: UnsafeRawBufferPointer, _ read: (inout JSONByteScanner) throws(JSONMemberError) -> Value
) throws(JSONMemberError) -> Value {
    var json = JSONByteScanner(raw.assumingMemoryBound(to: UInt8.self))
    let value = try read(&json)
    json.skipWhitespace()
    guard json.atEnd else { throw JSONMemberError("unexpected text after the value") }
    return value
}
