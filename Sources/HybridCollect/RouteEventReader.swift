public import Foundation
public import HybridCore

/// Decodes `RouteEvent` JSON at ingest speed: a byte-level reader for the event's own shape, with `JSONDecoder`
/// (the reference) taking over any event, line or body the reader cannot vouch for — an escape in a member name,
/// a duplicate member, `12.0` for an integer, a missing field, anything malformed. The reader therefore only ever
/// answers with what `JSONDecoder` would, just faster (`ingest` in `hybrid-bench`); errors always come from
/// `JSONDecoder`, so their wording is the reference's too.
public enum RouteEventReader {
    /// One JSON Lines line: the event, or why it is not one (the same answer as `JSONDecoder`).
    public static func decodeLine(_ line: some ContiguousBytes) -> Result<RouteEvent, FieldEventRejection> {
        if let fast = fastDecode(line) { return .success(fast) }
        return referenceDecode(line.withUnsafeBytes { Data($0) })
    }

    /// The event when the byte-level reader vouches for the whole line; nil leaves it to `JSONDecoder`.
    static func fastDecode(_ line: some ContiguousBytes) -> RouteEvent? {
        line.withUnsafeBytes { raw in
            var scanner = JSONByteScanner(raw.assumingMemoryBound(to: UInt8.self))
            guard let event = try? readEvent(&scanner) else { return nil }
            scanner.skipWhitespace()
            return scanner.atEnd ? event : nil
        }
    }

    /// What `JSONDecoder` makes of one event's bytes.
    static func referenceDecode(_ data: Data) -> Result<RouteEvent, FieldEventRejection> {
        do {
            return .success(try JSONDecoder().decode(RouteEvent.self, from: data))
        } catch {
            return .failure(FieldEventRejection(reasons: [LenientEventBatch.describe(error)]))
        }
    }

    /// The members of a `RouteEvent`, so a duplicate or a missing required one is caught with a bit mask.
    private enum Member: Int {
        case id, timestamp, installId, feature, configVersion, configHash, variant, rolloutArm, bucket, servedBy
        case servedTier, outcome, errorKind, attempts, ttftMs, latencyMs, inputTokens, outputTokens
        case tokensEstimated, costUSD, checks, cacheHit, labels, content

        var bit: UInt32 { 1 << UInt32(rawValue) }

        /// Every member that is not optional in `RouteEvent`'s synthesized `Decodable`.
        static let required: UInt32 = [
            Member.id, .timestamp, .installId, .feature, .configVersion, .variant, .outcome, .attempts, .latencyMs,
            .inputTokens, .outputTokens, .tokensEstimated, .costUSD, .checks, .cacheHit, .labels,
        ].reduce(0) { $0 | $1.bit }
    }

    /// One event object; throws when anything is not plainly an event, leaving it to `JSONDecoder`.
    static func readEvent(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop) -> RouteEvent {
        var event = RouteEvent(
            id: "", timestamp: Date(timeIntervalSince1970: 0), installId: "", feature: "", configVersion: 0,
            variant: "", outcome: .served, latencyMs: 0)
        var seen: UInt32 = 0
        guard try scanner.openObject() else { throw JSONByteScanner.Stop() }
        repeat {
            let key = try scanner.readKey()
            guard let member = member(at: key, in: scanner) else {
                try scanner.skipValue()
                continue
            }
            guard seen & member.bit == 0 else { throw JSONByteScanner.Stop() }
            seen |= member.bit
            try read(member, into: &event, from: &scanner)
        } while try scanner.continues(before: UInt8(ascii: "}"))
        guard seen & Member.required == Member.required else { throw JSONByteScanner.Stop() }
        return event
    }

    private static func read(_ member: Member, into event: inout RouteEvent, from scanner: inout JSONByteScanner)
        throws(JSONByteScanner.Stop)
    {
        switch member {
        case .id: event.id = try scanner.readString()
        case .timestamp:
            guard let date = ISO8601Milliseconds.parse(try scanner.readString()) else { throw JSONByteScanner.Stop() }
            event.timestamp = date
        case .installId: event.installId = try scanner.readString()
        case .feature: event.feature = try scanner.readString()
        case .configVersion: event.configVersion = try scanner.readInt()
        case .configHash: event.configHash = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readString() }
        case .variant: event.variant = try scanner.readString()
        case .rolloutArm: event.rolloutArm = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readString() }
        case .bucket: event.bucket = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readInt() }
        case .servedBy: event.servedBy = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readString() }
        case .servedTier: event.servedTier = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try readTier(&s) }
        case .outcome: event.outcome = RouteEvent.Outcome(rawValue: try scanner.readString())
        case .errorKind: event.errorKind = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readString() }
        case .attempts: event.attempts = try readArray(&scanner) { s throws(JSONByteScanner.Stop) in try readAttempt(&s) }
        case .ttftMs: event.ttftMs = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readDouble() }
        case .latencyMs: event.latencyMs = try scanner.readDouble()
        case .inputTokens: event.inputTokens = try scanner.readInt()
        case .outputTokens: event.outputTokens = try scanner.readInt()
        case .tokensEstimated: event.tokensEstimated = try scanner.readBool()
        case .costUSD: event.costUSD = try scanner.readDouble()
        case .checks: event.checks = try readArray(&scanner) { s throws(JSONByteScanner.Stop) in try readCheck(&s) }
        case .cacheHit: event.cacheHit = try scanner.readBool()
        case .labels: event.labels = try readStringMap(&scanner)
        case .content: event.content = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try readContent(&s) }
        }
    }

    /// Member names by length, so a name is compared with at most a few candidates (no allocation per key).
    private static func member(at key: Range<Int>, in scanner: JSONByteScanner) -> Member? {
        func pick(_ name: StaticString, _ member: Member) -> Member? { scanner.matches(key, name) ? member : nil }
        switch key.count {
        case 2: return pick("id", .id)
        case 6: return pick("bucket", .bucket) ?? pick("ttftMs", .ttftMs) ?? pick("checks", .checks) ?? pick("labels", .labels)
        case 7:
            return pick("feature", .feature) ?? pick("variant", .variant) ?? pick("outcome", .outcome)
                ?? pick("costUSD", .costUSD) ?? pick("content", .content)
        case 8: return pick("servedBy", .servedBy) ?? pick("attempts", .attempts) ?? pick("cacheHit", .cacheHit)
        case 9:
            return pick("timestamp", .timestamp) ?? pick("installId", .installId) ?? pick("errorKind", .errorKind)
                ?? pick("latencyMs", .latencyMs)
        case 10: return pick("configHash", .configHash) ?? pick("rolloutArm", .rolloutArm) ?? pick("servedTier", .servedTier)
        case 11: return pick("inputTokens", .inputTokens)
        case 12: return pick("outputTokens", .outputTokens)
        case 13: return pick("configVersion", .configVersion)
        case 15: return pick("tokensEstimated", .tokensEstimated)
        default: return nil
        }
    }

    // MARK: - Nested shapes

    private static func readAttempt(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop) -> RouteEvent.Attempt {
        var attempt = RouteEvent.Attempt(model: "", tier: nil, outcome: .served, startMs: 0, durationMs: 0)
        var seen: UInt8 = 0
        guard try scanner.openObject() else { throw JSONByteScanner.Stop() }
        repeat {
            let key = try scanner.readKey()
            let bit: UInt8
            if scanner.matches(key, "model") {
                bit = 1; attempt.model = try scanner.readString()
            } else if scanner.matches(key, "tier") {
                bit = 2; attempt.tier = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try readTier(&s) }
            } else if scanner.matches(key, "outcome") {
                bit = 4; attempt.outcome = RouteEvent.AttemptOutcome(rawValue: try scanner.readString())
            } else if scanner.matches(key, "errorKind") {
                bit = 8; attempt.errorKind = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readString() }
            } else if scanner.matches(key, "skipReason") {
                bit = 16; attempt.skipReason = try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readString() }
            } else if scanner.matches(key, "startMs") {
                bit = 32; attempt.startMs = try scanner.readDouble()
            } else if scanner.matches(key, "durationMs") {
                bit = 64; attempt.durationMs = try scanner.readDouble()
            } else {
                try scanner.skipValue()
                continue
            }
            guard seen & bit == 0 else { throw JSONByteScanner.Stop() }
            seen |= bit
        } while try scanner.continues(before: UInt8(ascii: "}"))
        guard seen & (1 | 4 | 32 | 64) == (1 | 4 | 32 | 64) else { throw JSONByteScanner.Stop() }
        return attempt
    }

    private static func readCheck(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop) -> RouteEvent.Check {
        var name: String?
        var passed: Bool?
        guard try scanner.openObject() else { throw JSONByteScanner.Stop() }
        repeat {
            let key = try scanner.readKey()
            if scanner.matches(key, "name") {
                guard name == nil else { throw JSONByteScanner.Stop() }
                name = try scanner.readString()
            } else if scanner.matches(key, "passed") {
                guard passed == nil else { throw JSONByteScanner.Stop() }
                passed = try scanner.readBool()
            } else {
                try scanner.skipValue()
            }
        } while try scanner.continues(before: UInt8(ascii: "}"))
        guard let name, let passed else { throw JSONByteScanner.Stop() }
        return RouteEvent.Check(name: name, passed: passed)
    }

    private static func readContent(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop) -> RouteEvent.Content {
        var inputs: [String: String]?
        var output: String??
        guard try scanner.openObject() else { throw JSONByteScanner.Stop() }
        repeat {
            let key = try scanner.readKey()
            if scanner.matches(key, "inputs") {
                guard inputs == nil else { throw JSONByteScanner.Stop() }
                inputs = try readStringMap(&scanner)
            } else if scanner.matches(key, "output") {
                guard output == nil else { throw JSONByteScanner.Stop() }
                output = .some(try optional(&scanner) { s throws(JSONByteScanner.Stop) in try s.readString() })
            } else {
                try scanner.skipValue()
            }
        } while try scanner.continues(before: UInt8(ascii: "}"))
        guard let inputs else { throw JSONByteScanner.Stop() }
        return RouteEvent.Content(inputs: inputs, output: output ?? nil)
    }

    private static func readTier(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop) -> ModelTier {
        guard let tier = ModelTier(rawValue: try scanner.readString()) else { throw JSONByteScanner.Stop() }
        return tier
    }

    /// An object of strings; a repeated key stops (`JSONDecoder` decides which copy wins).
    private static func readStringMap(_ scanner: inout JSONByteScanner) throws(JSONByteScanner.Stop) -> [String: String] {
        var map: [String: String] = [:]
        guard try scanner.openObject() else { return map }
        repeat {
            let key = try scanner.readString()
            try scanner.expect(UInt8(ascii: ":"))
            guard map.updateValue(try scanner.readString(), forKey: key) == nil else { throw JSONByteScanner.Stop() }
        } while try scanner.continues(before: UInt8(ascii: "}"))
        return map
    }

    private static func readArray<Element>(
        _ scanner: inout JSONByteScanner, _ element: (inout JSONByteScanner) throws(JSONByteScanner.Stop) -> Element
    ) throws(JSONByteScanner.Stop) -> [Element] {
        var elements: [Element] = []
        guard try scanner.openArray() else { return elements }
        repeat {
            elements.append(try element(&scanner))
        } while try scanner.continues(before: UInt8(ascii: "]"))
        return elements
    }

    /// `null` as nil (what `decodeIfPresent` does), anything else through `value`.
    private static func optional<Value>(
        _ scanner: inout JSONByteScanner, _ value: (inout JSONByteScanner) throws(JSONByteScanner.Stop) -> Value
    ) throws(JSONByteScanner.Stop) -> Value? {
        try scanner.readNull() ? nil : try value(&scanner)
    }
}
