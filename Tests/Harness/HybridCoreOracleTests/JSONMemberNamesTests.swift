import Foundation
@testable import HybridCore
import HybridReport
import HybridValidation
import Testing

/// The member tables' name lookup (`JSONMemberNames`): every member of every table is found at its own index,
/// and any other name, however close, is not.
@Suite struct JSONMemberNamesTests {
    /// Every table of the event wire types, as its members' names.
    static let tables: [(String, [StaticString])] = [
        ("RouteEvent", RouteEvent.jsonMembers.members.map(\.name)),
        ("RouteEvent.Attempt", RouteEvent.Attempt.jsonMembers.members.map(\.name)),
        ("RouteEvent.Check", RouteEvent.Check.jsonMembers.members.map(\.name)),
        ("RouteEvent.Content", RouteEvent.Content.jsonMembers.members.map(\.name)),
        ("RouteEventBatch", RouteEventBatch.jsonMembers.members.map(\.name)),
        ("RouteEventBatchResponse", RouteEventBatchResponse.jsonMembers.members.map(\.name)),
        ("RouteEventBatchResponse.Rejection", RouteEventBatchResponse.Rejection.jsonMembers.members.map(\.name)),
    ]

    /// Names alike in length and in their first and last eight bytes (so only the bytes between tell them
    /// apart), a name that is a prefix of another, and the empty name.
    static let awkward: [StaticString] = [
        "abcdefgh_one_ijklmnop", "abcdefgh_two_ijklmnop", "abcdefgh_six_ijklmnop", "abcdefghijklmnopq", "a", "ab", "",
        "exactly8", "exactly8!", "sixteen_bytes_xx", "sixteen_bytes_xy",
    ]

    /// The index `names` gives the key `text`, with the key placed at the start, in the middle and at the very
    /// end of the input (where fewer than eight bytes follow it).
    static func lookups(_ names: JSONMemberNames, _ text: String) -> [Int?] {
        let key = Array(text.utf8)
        let layouts: [(before: [UInt8], after: [UInt8])] = [([], Array(#"":1,"more":2}"#.utf8)), (Array("{\"x\":0,\"".utf8), Array("\":".utf8)), ([], [])]
        return layouts.map { layout in
            let input = layout.before + key + layout.after
            return input.withUnsafeBufferPointer { names.index(of: layout.before.count..<(layout.before.count + key.count), in: $0) }
        }
    }

    @Test func everyMemberOfEveryTableIsFoundAtItsIndex() {
        for (table, members) in Self.tables + [("awkward", Self.awkward)] {
            let names = JSONMemberNames(members)
            for (index, name) in members.enumerated() {
                #expect(Self.lookups(names, "\(name)") == [index, index, index], "\(table).\(name)")
            }
        }
    }

    @Test func theTablesInUseAreBuiltFromTheirMembers() {
        let event = RouteEvent.jsonMembers
        for (index, member) in event.members.enumerated() {
            #expect(Self.lookups(event.names, "\(member.name)") == [index, index, index], "\(member.name)")
        }
    }

    @Test func namesNotInTheTableAreNotFound() {
        for (table, members) in Self.tables + [("awkward", Self.awkward)] {
            let names = JSONMemberNames(members)
            let known = Set(members.map { "\($0)" })
            var near: [String] = ["", "x", "unknown", "idd", "Id", "ID", "labels_", "_labels", "tokensEstimatedX"]
            for name in known {
                near += [name + "x", "x" + name, String(name.dropLast()), String(name.dropFirst()), name.uppercased()]
                if let last = name.utf8.last { near.append(String(name.dropLast()) + (last == UInt8(ascii: "z") ? "y" : "z")) }
            }
            for name in near where !known.contains(name) {
                #expect(Self.lookups(names, name) == [nil, nil, nil], "\(table): \(name)")
            }
        }
    }

    /// Random printable names against a plain search of the table: the same answer every time.
    @Test func randomNamesAgreeWithASearchOfTheTable() {
        var rng = SplitMix64(seed: 39)
        let alphabet = Array("abcdeinoprstuvxyzIMT_".utf8)
        for (table, members) in Self.tables {
            let names = JSONMemberNames(members)
            let texts = members.map { "\($0)" }
            for _ in 0..<2_000 {
                var name = Array((texts.randomElement(using: &rng) ?? "").utf8)
                for _ in 0..<Int.random(in: 0...2, using: &rng) where !name.isEmpty {
                    name[Int.random(in: 0..<name.count, using: &rng)] = alphabet.randomElement(using: &rng)!
                }
                let text = String(decoding: name, as: UTF8.self)
                let expected = texts.firstIndex(of: text)
                #expect(Self.lookups(names, text) == [expected, expected, expected], "\(table): \(text)")
            }
        }
    }

    /// Through the reader: unknown members are skipped, a repeated one is refused by name, an escaped name is
    /// still its member, as before the lookup.
    @Test func theReaderSkipsUnknownNamesAndRefusesRepeatedOnes() throws {
        let check = try RouteEvent.Check.readJSON(bytes: Data(#"{"nam":1,"name":"a","namex":[{}],"passed ":0,"passed":true}"#.utf8))
        #expect(check == RouteEvent.Check(name: "a", passed: true))
        #expect(try RouteEvent.Check.readJSON(bytes: Data(#"{"n\u0061me":"b","passed":false}"#.utf8)) == RouteEvent.Check(name: "b", passed: false))
        #expect(throws: JSONMemberError(path: "name", "duplicate member")) {
            try RouteEvent.Check.readJSON(bytes: Data(#"{"name":"a","passed":true,"name":"b"}"#.utf8))
        }
        #expect(throws: JSONMemberError(path: "name", "duplicate member")) {
            try RouteEvent.Check.readJSON(bytes: Data(#"{"name":"a","n\u0061me":"b","passed":true}"#.utf8))
        }
        #expect(throws: JSONMemberError(path: "passed", "missing")) { try RouteEvent.Check.readJSON(bytes: Data(#"{"name":"a","Passed":true}"#.utf8)) }
    }

    /// A canonical timestamp is read in place; any other form Foundation reads still is, and a near miss of the
    /// canonical form is refused or read as the slower path reads it.
    @Test func timestampsReadInPlaceAgreeWithTheStringPath() throws {
        let texts = [
            "2026-11-22T22:26:18.123Z", "1970-01-01T00:00:00.000Z", "2026-11-22T22:26:18Z", "2026-11-22T22:26:18.5+02:00",
            "2026-13-22T22:26:18.123Z", "2026-11-22T22:26:18.123z", "2026-11-22 22:26:18.123Z", "2026-11-22T22:26:18.1234Z",
        ]
        for text in texts {
            let expected = ISO8601Milliseconds.parse(text)
            let read = try? Self.date("\"\(text)\"")
            #expect(read == expected, "\(text)")
        }
        #expect(try Self.date(#" "2026-11-22T22:26:18.123Z" "#) == ISO8601Milliseconds.parse("2026-11-22T22:26:18.123Z"))
        #expect(throws: JSONMemberError("expected a string")) { try Self.date(#""2026-11-22T22:26:18.123Z"#) }
    }

    static func date(_ json: String) throws(JSONMemberError) -> Date {
        try readWhole(Data(json.utf8)) { (json) throws(JSONMemberError) in try Date.readJSON(&json) }
    }
}
