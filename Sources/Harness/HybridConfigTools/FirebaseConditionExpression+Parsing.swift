import HybridConfig

extension FirebaseConditionExpression {
    /// Why a Firebase expression has no `ConfigCondition` with the same meaning.
    struct Unmappable: Error {
        var reason: String
    }

    /// One clause read: a test on a label, a percentile range, or `true` (which constrains nothing).
    private enum Clause {
        case label(String, LabelTest)
        case percent(PercentileRange)
        case always
    }

    /// The condition `expression` states, read as `expression(for:at:)` writes it and as the console writes it
    /// (the element table there); anything else (audiences, user properties, time, app id, `||`, …) is `Unmappable`.
    static func condition(named name: String, expression: String) throws(Unmappable) -> ConfigCondition {
        var scanner = Scanner(expression)
        var labels: [String: LabelTest] = [:]
        var percentile: PercentileRange?
        repeat {
            switch try clause(&scanner) {
            case .always:
                break
            case .label(let label, let test):
                guard let merged = labels[label, default: LabelTest()].merging(test) else {
                    throw Unmappable(reason: "two tests of the same kind on \(Element(label: label).name) (a HybridAI label test holds one of each)")
                }
                labels[label] = merged
            case .percent(let range):
                guard percentile == nil else { throw Unmappable(reason: "two percent clauses (a HybridAI condition has one percentile range)") }
                percentile = range
            }
        } while scanner.take("&&")
        if scanner.take("||") { throw Unmappable(reason: "'||': every test of a HybridAI condition must hold; write one condition per alternative") }
        guard scanner.atEnd else { throw Unmappable(reason: "cannot read \"\(scanner.rest)\"") }
        guard !labels.isEmpty || percentile != nil else {
            throw Unmappable(reason: "\"\(expression)\" holds for every install; a HybridAI condition needs a label test or a percentile")
        }
        return ConfigCondition(name: name, labels: labels, percentile: percentile)
    }

    private static func clause(_ s: inout Scanner) throws(Unmappable) -> Clause {
        if s.take("percent") { return .percent(try percent(&s)) }
        if s.take("app.version.") { return try versionClause(.appVersion, method: &s) }
        if s.take("version(app.customSignal[") {
            let key = try s.expectQuoted()
            try s.expect("])")
            let op = s.take(">=") ? ">=" : s.take("<") ? "<" : nil
            let value = try s.expectQuoted()
            return try versionTest(.customSignal(key), op: op ?? "other", values: [value])
        }
        if s.take("app.customSignal[") {
            let key = try s.expectQuoted()
            try s.expect("]")
            guard s.take(".") else {
                throw Unmappable(reason: "numeric comparison of app.customSignal['\(key)']: HybridAI compares labels as strings or versions")
            }
            return try versionClause(.customSignal(key), method: &s)
        }
        if s.take("device.os") {
            guard s.take("==") else { throw Unmappable(reason: "device.os other than == 'x' (HybridAI states platform equals a value)") }
            // The console writes `== 'ios'`; the grammar also allows the value in brackets.
            let bracketed = s.take("[")
            let value = try s.expectQuoted()
            if bracketed { try s.expect("]") }
            return .label("platform", LabelTest(equals: value))
        }
        for element in [Element.language, .country] where s.take(element.name) {
            guard s.take("in"), let values = s.list(), !values.isEmpty else {
                throw Unmappable(reason: "\(element.name) other than in [...]")
            }
            return .label(element.label, values.count == 1 ? LabelTest(equals: values[0]) : LabelTest(oneOf: values))
        }
        if s.take("true") { return .always }
        let element = s.identifier()
        throw Unmappable(reason: hint(for: element))
    }

    /// `app.version.OP([...])` or `app.customSignal['key'].OP([...])`, after the dot.
    private static func versionClause(_ element: Element, method s: inout Scanner) throws(Unmappable) -> Clause {
        let operators = [">=", "<=", "==", "!=", ">", "<", "exactlyMatches", "notContains", "contains", "matches"]
        guard let op = operators.first(where: { s.take($0) }) else { throw Unmappable(reason: "unknown \(element.name) operator in \"\(s.rest)\"") }
        guard s.take("("), let values = s.list(), !values.isEmpty, s.take(")") else {
            throw Unmappable(reason: "\(element.name).\(op) needs a list of values: \(op)(['…'])")
        }
        switch op {
        case "exactlyMatches":
            return .label(element.label, values.count == 1 ? LabelTest(equals: values[0]) : LabelTest(oneOf: values))
        case "matches":
            guard values.count == 1, let prefix = prefix(regex: values[0]) else {
                throw Unmappable(reason: "\(element.name).matches with \(values): HybridAI states a prefix (^ followed by literal text), one per test")
            }
            return .label(element.label, LabelTest(prefix: prefix))
        default:
            return try versionTest(element, op: op, values: values)
        }
    }

    private static func versionTest(_ element: Element, op: String, values: [String]) throws(Unmappable) -> Clause {
        guard op == ">=" || op == "<" else {
            throw Unmappable(reason: "\(element.name) \(op): HybridAI tests versions with atLeast (>=) and below (<) and strings by equality or prefix")
        }
        guard values.count == 1, SemanticVersion(values[0]) != nil else {
            throw Unmappable(reason: "\(element.name) \(op) needs one version, found \(values)")
        }
        return .label(element.label, op == ">=" ? LabelTest(atLeast: values[0]) : LabelTest(below: values[0]))
    }

    /// `percent`, `percent('seed')`, then `<= N`, `> N` or `between A and B`.
    private static func percent(_ s: inout Scanner) throws(Unmappable) -> PercentileRange {
        var seed = unseededPercentSeed
        if s.take("(") {
            seed = try s.expectQuoted()
            try s.expect(")")
        }
        var bounds: (Double, Double)?
        if s.take("<="), let upper = s.number() {
            bounds = (0, upper)
        } else if s.take(">"), let lower = s.number() {
            bounds = (lower, 100)
        } else if s.take("between"), let lower = s.number(), s.take("and"), let upper = s.number() {
            bounds = (lower, upper)
        }
        guard let bounds, bounds.0 >= 0, bounds.0 < bounds.1, bounds.1 <= 100 else {
            throw Unmappable(reason: "percent clause not of the form <= N, > N or between A and B with 0 ≤ A < B ≤ 100")
        }
        return PercentileRange(seed: seed.isEmpty ? unseededPercentSeed : seed, from: bounds.0, below: bounds.1)
    }

    /// The literal prefix an anchored expression states (`^3[.]2`, `^3\.2`), or nil when it says more than that.
    static func prefix(regex: String) -> String? {
        var characters = Substring(regex)
        guard characters.first == "^" else { return nil }
        characters.removeFirst()
        var out = ""
        while let c = characters.first {
            characters.removeFirst()
            if c == "[", characters.count >= 2, characters.dropFirst().first == "]", let literal = characters.first, literal != "^", literal != "\\" {
                out.append(literal)
                characters.removeFirst(2)
            } else if c == "\\", let literal = characters.first, !literal.isLetter, !literal.isNumber {
                out.append(literal)
                characters.removeFirst()
            } else if ".$*+?()|{}[]\\^".contains(c) {
                return nil
            } else {
                out.append(c)
            }
        }
        return out.isEmpty ? nil : out
    }

    /// Why an element HybridAI has no label for cannot map, for the warning.
    private static func hint(for element: String) -> String {
        let why: String
        switch element {
        case "app.audiences": why = "Google Analytics audiences are not labels the app gives the router"
        case "app.userProperty": why = "Google Analytics user properties are not labels the app gives the router (pass the value as a label and test it with app.customSignal)"
        case "app.firstOpenTimestamp", "dateTime", "device.dateTime": why = "HybridAI conditions do not test dates or times"
        case "app.id", "app.build": why = "HybridAI has no such label (pass it as a label and test it with app.customSignal)"
        case "app.firebaseInstallationId": why = "HybridAI picks installs by percentile, not by id"
        case "app.operatingSystemAndVersion", "app.browserAndVersion": why = "a web-app element HybridAI has no label for"
        case "false": why = "it never holds"
        case "": why = "not a clause HybridAI reads"
        default: why = "HybridAI has no equivalent"
        }
        return element.isEmpty ? why : "\(element): \(why)"
    }
}

extension LabelTest {
    /// This test and `other` together, or nil when both set the same field (two version bounds of one kind, say).
    fileprivate func merging(_ other: LabelTest) -> LabelTest? {
        func one<T>(_ a: T?, _ b: T?) -> (T?, Bool) { a != nil && b != nil ? (nil, false) : (a ?? b, true) }
        let (equals, e) = one(self.equals, other.equals)
        let (oneOf, o) = one(self.oneOf, other.oneOf)
        let (prefix, p) = one(self.prefix, other.prefix)
        let (atLeast, a) = one(self.atLeast, other.atLeast)
        let (below, b) = one(self.below, other.below)
        guard e, o, p, a, b else { return nil }
        return LabelTest(equals: equals, oneOf: oneOf, prefix: prefix, atLeast: atLeast, below: below)
    }
}

/// Reads a Firebase expression left to right, skipping blanks between tokens (the console writes one space
/// around operators, hand-written templates vary).
private struct Scanner {
    private var text: Substring

    init(_ text: String) { self.text = Substring(text) }

    var atEnd: Bool { text.allSatisfy(\.isWhitespace) }
    var rest: String { String(text.drop(while: \.isWhitespace)) }

    /// Consumes `literal` when it comes next.
    mutating func take(_ literal: String) -> Bool {
        skipBlanks()
        guard text.hasPrefix(literal) else { return false }
        text.removeFirst(literal.count)
        return true
    }

    mutating func expect(_ literal: String) throws(FirebaseConditionExpression.Unmappable) {
        guard take(literal) else { throw .init(reason: "expected \(literal) in \"\(rest)\"") }
    }

    /// A single-quoted string.
    mutating func expectQuoted() throws(FirebaseConditionExpression.Unmappable) -> String {
        skipBlanks()
        guard text.first == "'", let end = text.dropFirst().firstIndex(of: "'") else {
            throw .init(reason: "expected a quoted value in \"\(rest)\"")
        }
        let value = String(text[text.index(after: text.startIndex)..<end])
        text = text[text.index(after: end)...]
        return value
    }

    /// `['a', 'b']`.
    mutating func list() -> [String]? {
        guard take("[") else { return nil }
        var values: [String] = []
        if take("]") { return values }
        repeat {
            guard let value = try? expectQuoted() else { return nil }
            values.append(value)
        } while take(",")
        return take("]") ? values : nil
    }

    mutating func number() -> Double? {
        skipBlanks()
        let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard let value = Double(digits) else { return nil }
        text.removeFirst(digits.count)
        return value
    }

    /// The element name that comes next (`app.audiences`), for messages.
    mutating func identifier() -> String {
        skipBlanks()
        return String(text.prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" })
    }

    private mutating func skipBlanks() {
        text = text.drop(while: \.isWhitespace)
    }
}
