extension SchemaParser {
    /// Reads a `$ref`: `#`, a JSON Pointer fragment (`#/$defs/a`, `#/definitions/a`, `#/properties/x`), or a
    /// `#name` anchor, optionally prefixed by the root `$id`. Remote references are refused.
    mutating func parseReference(_ value: JSONValue, at path: JSONPath) throws(SchemaError) -> SchemaReference {
        guard case .string(let written) = value else {
            throw .invalidKeywordValue(
                path: path.keywordPath, keyword: "$ref", reason: "expected a string, got \(value.typeName)")
        }
        func unresolved(_ reason: String) -> SchemaError {
            .unresolvedReference(path: path.keywordPath, reference: written, reason: reason)
        }
        var ref = Substring(written)
        if let rootID, !rootID.isEmpty, ref.hasPrefix(rootID) { ref = ref.dropFirst(rootID.count) }
        guard ref.first == "#" else {
            throw unresolved("only references inside this schema ('#', '#/$defs/<name>', '#<anchor>') are supported")
        }
        guard let fragment = Self.percentDecoded(ref.dropFirst()) else { throw unresolved("malformed %-escape") }
        let reference: SchemaReference
        if fragment.isEmpty {
            reference = .root
        } else if fragment.hasPrefix("/") {
            // JSON Pointer escapes; `~1` is decoded before `~0` so `~01` means `~1` literally.
            let tokens = fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
                String($0.replacing("~1", with: "/").replacing("~0", with: "~"))
            }
            reference = SchemaReference(tokens: tokens)
            guard Self.value(at: tokens, in: document) != nil else {
                throw unresolved("nothing at that location in the schema" + knownDefinitions(near: tokens))
            }
        } else {
            guard let anchored = anchors[fragment] else { throw unresolved("no \"$anchor\": \"\(fragment)\" in the schema") }
            reference = anchored
        }
        pending.append((reference, path))
        sawReference = true
        return reference
    }

    /// ` (have: a, b)` listing the definitions beside a missing one, so a typo is easy to spot.
    private func knownDefinitions(near tokens: [String]) -> String {
        guard tokens.count == 2, tokens[0] == "$defs" || tokens[0] == "definitions",
            case .object(let defs)? = Self.value(at: [tokens[0]], in: document)
        else { return "" }
        return defs.isEmpty ? "" : " (have: \(defs.keys.sorted().joined(separator: ", ")))"
    }

    /// The value a JSON Pointer names, or nil.
    static func value(at tokens: [String], in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let i = Int(token), elements.indices.contains(i) else { return nil }
                current = elements[i]
            default:
                return nil
            }
        }
        return current
    }

    /// Records every `$anchor`, walking only schema positions (a property *named* `$anchor` is not one).
    mutating func collectAnchors(_ value: JSONValue, at tokens: [String]) throws(SchemaError) {
        // Nearly every schema has no anchor at all: a plain look for the key spares the ordered walk.
        guard Self.mentionsAnchor(value) else { return }
        var tokens = tokens
        try collectAnchors(value, under: &tokens)
    }

    /// Whether an `$anchor` key appears anywhere in `value`, schema position or not (a superset of the walk's).
    private static func mentionsAnchor(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            // Compared while walking, not looked up: a schema object has a few keys, and hashing one per object
            // cost more than comparing them.
            for (key, member) in members where key == "$anchor" || mentionsAnchor(member) { return true }
            return false
        case .array(let elements):
            return elements.contains(where: mentionsAnchor)
        default:
            return false
        }
    }

    /// One path stack for the whole walk: the schema of every feature is walked on every config load, and a
    /// token array per visited schema was most of the walk.
    private mutating func collectAnchors(_ value: JSONValue, under tokens: inout [String]) throws(SchemaError) {
        guard case .object(let members) = value else { return }
        if case .string(let name)? = members["$anchor"] {
            let here = SchemaReference(tokens: tokens)
            if let earlier = anchors[name], earlier != here {
                throw .invalidKeywordValue(
                    path: JSONPath(components: (tokens + ["$anchor"]).map { .key($0) }).keywordPath,
                    keyword: "$anchor", reason: "'\(name)' is already the anchor of \(earlier)")
            }
            anchors[name] = here
        }
        for key in members.keys.sorted() {
            guard let child = members[key] else { continue }
            tokens.append(key)
            defer { tokens.removeLast() }
            if Self.schemaValued.contains(key) || (key == "items" && child.arrayValue == nil) {
                try collectAnchors(child, under: &tokens)
            } else if Self.schemaArrays.contains(key), case .array(let elements) = child {
                for (i, element) in elements.enumerated() {
                    tokens.append(String(i))
                    defer { tokens.removeLast() }
                    try collectAnchors(element, under: &tokens)
                }
            } else if Self.schemaMaps.contains(key), case .object(let map) = child {
                for name in map.keys.sorted() {
                    tokens.append(name)
                    defer { tokens.removeLast() }
                    try collectAnchors(map[name] ?? .null, under: &tokens)
                }
            }
        }
    }

    /// Decodes `%XX` escapes in a URI fragment; nil when one is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Rejects `$ref` chains that return to their start while applying to the same instance (through `$ref`,
    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else` or `dependentSchemas`): validation would never end.
    static func checkReferenceCycles(targets: [SchemaReference: SchemaNode]) throws(SchemaError) {
        func inPlaceReferences(_ node: SchemaNode) -> [SchemaReference] {
            guard case .keywords(let rules) = node else { return [] }
            let k = rules.k
            var refs = k.reference.map { [$0] } ?? []
            for branch in k.inPlaceSubschemas { refs += inPlaceReferences(branch) }
            return refs
        }
        var finished = Set<SchemaReference>()
        func visit(_ ref: SchemaReference, stack: [SchemaReference]) throws(SchemaError) {
            if let start = stack.firstIndex(of: ref) {
                let chain = (stack[start...] + [ref]).map(\.description)
                throw .referenceCycle(path: stack[start].keywordPath, chain: chain)
            }
            guard !finished.contains(ref), let target = targets[ref] else { return }
            for next in inPlaceReferences(target) { try visit(next, stack: stack + [ref]) }
            finished.insert(ref)
        }
        try visit(.root, stack: [])
        for ref in targets.keys.sorted(by: { $0.description < $1.description }) { try visit(ref, stack: []) }
    }
}
