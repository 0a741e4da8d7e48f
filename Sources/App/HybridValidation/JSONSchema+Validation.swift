extension JSONSchema {
    /// Every way `value` fails this schema; empty when it conforms.
    ///
    /// All keywords are checked independently, so one bad value can yield several violations (e.g. wrong type
    /// and not in `enum`). Object members are visited in sorted key order, so the result is deterministic.
    package func validate(_ value: JSONValue) -> [SchemaViolation] {
        var violations: [SchemaViolation] = []
        var path = JSONPath.root
        check(root, value, at: &path, into: &violations)
        return violations
    }

    /// Whether `value` conforms; cheaper to read than `validate(_:).isEmpty` at call sites.
    public func isValid(_ value: JSONValue) -> Bool {
        validate(value).isEmpty
    }

    private func check(_ node: SchemaNode, _ value: JSONValue, at path: inout JSONPath, into out: inout [SchemaViolation]) {
        switch node {
        case .always(true):
            return
        case .always(false):
            out.append(SchemaViolation(path: path.description, keyword: "false", message: "no value is allowed here (the schema is false)"))
        case .keywords(let rules):
            check(rules, value, at: &path, into: &out)
        }
    }

    private func check(_ r: SchemaRules, _ value: JSONValue, at path: inout JSONPath, into out: inout [SchemaViolation]) {
        if let reference = r.k.reference, let target = targets[reference] {
            check(target, value, at: &path, into: &out)
        }
        checkAnyType(r, value, at: &path, into: &out)
        switch value {
        case .int, .double:
            if let number = SchemaNumber(value) { checkNumber(r, number, at: &path, into: &out) }
        case .string(let text):
            checkString(r, text, at: &path, into: &out)
        case .array(let elements):
            checkArray(r, elements, at: &path, into: &out)
        case .object(let members):
            checkObject(r, members, at: &path, into: &out)
        default:
            break
        }
        checkApplicators(r, value, at: &path, into: &out)
    }

    private func checkAnyType(_ r: SchemaRules, _ value: JSONValue, at path: inout JSONPath, into out: inout [SchemaViolation]) {
        func fail(_ keyword: String, _ message: String) {
            out.append(SchemaViolation(path: path.description, keyword: keyword, message: message))
        }
        if let types = r.k.types, !types.contains(where: { $0.matches(value) }), !(r.k.nullable && value == .null) {
            let expected = (types.map(\.rawValue) + (r.k.nullable ? ["null"] : [])).joined(separator: " or ")
            fail("type", "expected \(expected), got \(Self.describe(value))")
        }
        if let options = r.k.enumValues, !options.contains(where: { $0.isSchemaEqual(to: value) }) {
            let list = options.map { $0.compactJSON(limit: 40) }.joined(separator: ", ")
            fail("enum", "expected one of \(list), got \(value.compactJSON())")
        }
        if let expected = r.k.constValue, !expected.isSchemaEqual(to: value) {
            fail("const", "expected \(expected.compactJSON()), got \(value.compactJSON())")
        }
    }

    private func checkNumber(_ r: SchemaRules, _ number: SchemaNumber, at path: inout JSONPath, into out: inout [SchemaViolation]) {
        func fail(_ keyword: String, _ message: String) {
            out.append(SchemaViolation(path: path.description, keyword: keyword, message: message))
        }
        if let limit = r.k.minimum, number < limit { fail("minimum", "must be >= \(limit), got \(number)") }
        if let limit = r.k.maximum, limit < number { fail("maximum", "must be <= \(limit), got \(number)") }
        if let limit = r.k.exclusiveMinimum, !(limit < number) { fail("exclusiveMinimum", "must be > \(limit), got \(number)") }
        if let limit = r.k.exclusiveMaximum, !(number < limit) { fail("exclusiveMaximum", "must be < \(limit), got \(number)") }
        if let step = r.k.multipleOf, !number.isMultiple(of: step) {
            fail("multipleOf", "must be a multiple of \(step), got \(number)")
        }
    }

    private func checkString(_ r: SchemaRules, _ text: String, at path: inout JSONPath, into out: inout [SchemaViolation]) {
        func fail(_ keyword: String, _ message: String) {
            out.append(SchemaViolation(path: path.description, keyword: keyword, message: message))
        }
        if r.k.minLength != nil || r.k.maxLength != nil {
            // JSON Schema counts length in code points, not grapheme clusters or UTF-16 units.
            let length = text.unicodeScalars.count
            if let limit = r.k.minLength, length < limit {
                fail("minLength", "expected at least \(Self.count(limit, "character")), got \(length)")
            }
            if let limit = r.k.maxLength, length > limit {
                fail("maxLength", "expected at most \(Self.count(limit, "character")), got \(length)")
            }
        }
        if let pattern = r.k.pattern, !pattern.matches(text) {
            fail("pattern", "\(JSONValue.string(text).compactJSON()) does not match pattern '\(pattern.source)'")
        }
        if let format = r.k.format, !format.matches(text) {
            fail("format", "\(JSONValue.string(text).compactJSON()) is not a valid \(format.rawValue)")
        }
    }

    private func checkArray(_ r: SchemaRules, _ elements: [JSONValue], at path: inout JSONPath, into out: inout [SchemaViolation]) {
        func fail(_ keyword: String, _ message: String) {
            out.append(SchemaViolation(path: path.description, keyword: keyword, message: message))
        }
        if let limit = r.k.minItems, elements.count < limit {
            fail("minItems", "expected at least \(Self.count(limit, "item")), got \(elements.count)")
        }
        if let limit = r.k.maxItems, elements.count > limit {
            fail("maxItems", "expected at most \(Self.count(limit, "item")), got \(elements.count)")
        }
        let prefix = r.k.prefixItems ?? []
        for (i, element) in elements.enumerated() {
            guard let schema = i < prefix.count ? prefix[i] : r.k.items else { continue }
            path.components.append(.index(i))
            check(schema, element, at: &path, into: &out)
            path.components.removeLast()
        }
        if r.k.uniqueItems, let (first, second) = Self.firstDuplicate(elements) {
            fail("uniqueItems", "items [\(first)] and [\(second)] are equal (\(elements[first].compactJSON(limit: 40))); items must be unique")
        }
        if let contains = r.k.contains { checkContains(r, contains, elements, at: &path, into: &out) }
    }

    private func checkContains(
        _ r: SchemaRules, _ contains: SchemaNode, _ elements: [JSONValue], at path: inout JSONPath,
        into out: inout [SchemaViolation]
    ) {
        var matching = 0
        for (i, element) in elements.enumerated() {
            path.components.append(.index(i))
            if isValid(contains, element, at: &path) { matching += 1 }
            path.components.removeLast()
        }
        let low = r.k.minContains ?? 1
        if matching < low {
            let message = low == 1 ? "no item matches the 'contains' schema"
                : "expected at least \(Self.count(low, "item")) matching 'contains', got \(matching)"
            out.append(SchemaViolation(path: path.description, keyword: r.k.minContains == nil ? "contains" : "minContains", message: message))
        }
        if let high = r.k.maxContains, matching > high {
            out.append(SchemaViolation(
                path: path.description, keyword: "maxContains",
                message: "expected at most \(Self.count(high, "item")) matching 'contains', got \(matching)"))
        }
    }

    private func checkObject(
        _ r: SchemaRules, _ members: [String: JSONValue], at path: inout JSONPath, into out: inout [SchemaViolation]
    ) {
        func fail(_ keyword: String, _ message: String, at where_: JSONPath? = nil) {
            out.append(SchemaViolation(path: (where_ ?? path).description, keyword: keyword, message: message))
        }
        for key in r.k.required where members.exactMember(key) == nil {
            fail("required", "missing required key '\(key)'")
        }
        for key in members.keys.sorted() {
            guard let member = members[key] else { continue }
            path.components.append(.key(key))
            checkMember(r, key, member, at: &path, into: &out)
            path.components.removeLast()
        }
        if let names = r.k.propertyNames {
            for key in members.keys.sorted() {
                var nameViolations: [SchemaViolation] = []
                check(names, .string(key), at: &path, into: &nameViolations)
                for v in nameViolations { fail("propertyNames", "property name '\(key)': \(v.message)") }
            }
        }
        if let limit = r.k.minProperties, members.count < limit {
            fail("minProperties", "expected at least \(Self.count(limit, "key")), got \(members.count)")
        }
        if let limit = r.k.maxProperties, members.count > limit {
            fail("maxProperties", "expected at most \(Self.count(limit, "key")), got \(members.count)")
        }
        for trigger in r.k.dependentRequired.keys.sorted() where members.exactMember(trigger) != nil {
            for key in r.k.dependentRequired[trigger] ?? [] where members.exactMember(key) == nil {
                fail("dependentRequired", "missing key '\(key)', required when '\(trigger)' is present")
            }
        }
    }

    /// One member against `properties`, every matching `patternProperties`, or else `additionalProperties`.
    private func checkMember(
        _ r: SchemaRules, _ key: String, _ member: JSONValue, at memberPath: inout JSONPath, into out: inout [SchemaViolation]
    ) {
        var evaluated = false
        if let schema = r.k.properties.exactMember(key) {
            evaluated = true
            check(schema, member, at: &memberPath, into: &out)
        }
        for entry in r.k.patternProperties where entry.pattern.matches(key) {
            evaluated = true
            check(entry.schema, member, at: &memberPath, into: &out)
        }
        guard !evaluated, let additional = r.k.additionalProperties else { return }
        if case .always(false) = additional {
            let allowed = r.k.properties.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            out.append(SchemaViolation(
                path: memberPath.description, keyword: "additionalProperties",
                message: "unexpected key '\(key)' (additionalProperties is false" + (allowed.isEmpty ? ")" : "; allowed: \(allowed))")))
        } else {
            check(additional, member, at: &memberPath, into: &out)
        }
    }

    private func checkApplicators(_ r: SchemaRules, _ value: JSONValue, at path: inout JSONPath, into out: inout [SchemaViolation]) {
        func fail(_ keyword: String, _ message: String) {
            out.append(SchemaViolation(path: path.description, keyword: keyword, message: message))
        }
        for branch in r.k.allOf ?? [] { check(branch, value, at: &path, into: &out) }
        if let branches = r.k.anyOf {
            var failures: [[SchemaViolation]] = []
            for branch in branches {
                let branchViolations = violations(branch, value, at: &path)
                if branchViolations.isEmpty { failures = []; break }
                failures.append(branchViolations)
            }
            if !failures.isEmpty {
                fail("anyOf", "does not match any alternative of anyOf: " + Self.summarize(failures, at: path))
            }
        }
        if let branches = r.k.oneOf {
            var failures: [[SchemaViolation]] = []
            var matched: [Int] = []
            for (i, branch) in branches.enumerated() {
                let branchViolations = violations(branch, value, at: &path)
                if branchViolations.isEmpty { matched.append(i) } else { failures.append(branchViolations) }
            }
            if matched.isEmpty {
                fail("oneOf", "does not match any alternative of oneOf: " + Self.summarize(failures, at: path))
            } else if matched.count > 1 {
                let which = matched.map { "[\($0)]" }.joined(separator: ", ")
                fail("oneOf", "matches \(matched.count) alternatives of oneOf (\(which)); exactly one must match")
            }
        }
        if let negated = r.k.not, isValid(negated, value, at: &path) {
            fail("not", "must not match the schema under 'not'")
        }
        if let condition = r.k.ifSchema {
            let branch = isValid(condition, value, at: &path) ? r.k.thenSchema : r.k.elseSchema
            if let branch { check(branch, value, at: &path, into: &out) }
        }
        if case .object(let members) = value {
            for trigger in r.k.dependentSchemas.keys.sorted() where members.exactMember(trigger) != nil {
                if let schema = r.k.dependentSchemas[trigger] { check(schema, value, at: &path, into: &out) }
            }
        }
    }

    private func violations(_ node: SchemaNode, _ value: JSONValue, at path: inout JSONPath) -> [SchemaViolation] {
        var out: [SchemaViolation] = []
        check(node, value, at: &path, into: &out)
        return out
    }

    private func isValid(_ node: SchemaNode, _ value: JSONValue, at path: inout JSONPath) -> Bool {
        violations(node, value, at: &path).isEmpty
    }

    /// The first pair of equal elements by JSON Schema equality (`1` equals `1.0`, `true` does not equal `1`).
    private static func firstDuplicate(_ elements: [JSONValue]) -> (Int, Int)? {
        for j in elements.indices {
            for i in 0..<j where elements[i].isSchemaEqual(to: elements[j]) { return (i, j) }
        }
        return nil
    }

    /// `string "12"`, `integer 5`, `array (3 items)`: the type name first so type errors read naturally.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .array(let items): "array (\(count(items.count, "item")))"
        case .object(let members): "object (\(count(members.count, "key")))"
        default: "\(value.typeName) \(value.compactJSON(limit: 40))"
        }
    }

    /// `1 item`, `3 items`.
    private static func count(_ n: Int, _ unit: String) -> String {
        "\(n) \(unit)\(n == 1 ? "" : "s")"
    }

    /// One clause per alternative, listing at most its first two problems so the message stays readable.
    private static func summarize(_ failures: [[SchemaViolation]], at path: JSONPath) -> String {
        let here = path.description
        return failures.enumerated().map { i, violations in
            let shown = violations.prefix(2).map { v in v.path == here ? v.message : "\(v.path): \(v.message)" }
            let more = violations.count > 2 ? " (+\(violations.count - 2) more)" : ""
            return "[\(i)] " + shown.joined(separator: ", ") + more
        }.joined(separator: "; ")
    }
}
