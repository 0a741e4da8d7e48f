package import Foundation

/// One member of a JSON object type: its name, and how its value is read into and written from the Swift value.
/// Built by ``JSONMember/member(_:_:)`` from a key path, so a member is one line of its type's table.
package struct JSONMember<Root>: Sendable {
    /// The member's name on the wire.
    package let name: StaticString
    /// Whether the object is refused without it (every non-optional property).
    package let isRequired: Bool
    fileprivate let read: @Sendable (inout JSONByteScanner, inout Root) throws(JSONMemberError) -> Void
    fileprivate let write: @Sendable (Root, inout JSONTextWriter, _ first: Bool) throws(JSONMemberError) -> Bool
}

extension JSONMember {
    /// A member stored at `keyPath`; optional values may be absent and are omitted when nil.
    package static func member<Value: JSONMemberValue>(
        _ name: StaticString, _ keyPath: any WritableKeyPath<Root, Value> & Sendable
    ) -> JSONMember<Root> {
        member(name, get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
    }

    /// A member read and written through plain accessors: for tables on a hot path (route events), where a key
    /// path's runtime projection per member made decoding an event about half again as costly.
    package static func member<Value: JSONMemberValue>(
        _ name: StaticString, get: @escaping @Sendable (Root) -> Value, set: @escaping @Sendable (inout Root, Value) -> Void
    ) -> JSONMember<Root> {
        JSONMember(
            name: name, isRequired: !Value.isOptional,
            read: { (json, root) throws(JSONMemberError) in set(&root, try Value.readJSON(&json)) },
            write: { (root, writer, first) throws(JSONMemberError) in
                let value = get(root)
                guard !value.isAbsentJSON else { return false }
                writer.key(name, first: first)
                try value.writeJSON(&writer)
                return true
            })
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
    private let byLength: [[Int]]

    package init(_ members: [JSONMember<Root>]) {
        precondition(members.count <= 64, "a JSONMembers table holds at most 64 members")
        self.members = members
        var required: UInt64 = 0
        var byLength = [[Int]](repeating: [], count: 1 + (members.map(\.name.utf8CodeUnitCount).max() ?? 0))
        for (index, member) in members.enumerated() {
            if member.isRequired { required |= 1 << UInt64(index) }
            byLength[member.name.utf8CodeUnitCount].append(index)
        }
        self.required = required
        self.byLength = byLength
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
            let member = members[index]
            guard seen & (1 << UInt64(index)) == 0 else { throw JSONMemberError(path: "\(member.name)", "duplicate member") }
            seen |= 1 << UInt64(index)
            do {
                try member.read(&json, &root)
            } catch {
                throw error.inside("\(member.name)")
            }
        } while try scanning("`,` or `}`", { () throws(JSONByteScanner.Stop) in try json.continues(before: UInt8(ascii: "}")) })
        try checkRequired(seen)
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
            return byLength[key.count].first { json.matches(key, members[$0].name) }
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
