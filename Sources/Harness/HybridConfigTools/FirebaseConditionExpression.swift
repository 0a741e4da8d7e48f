import HybridConfig

/// Prints a `ConfigCondition` as a Firebase Remote Config condition expression and reads one back, for
/// `FirebaseRemoteConfig`. Syntax: firebase.google.com/docs/remote-config/condition-reference (the REST form the
/// console writes: clauses joined by ` && `, strings in single quotes).
///
/// Labels map to Firebase elements by name; a test an element cannot state is refused on export (never dropped,
/// since a dropped clause would widen the condition and a dropped condition would change who gets what):
///
/// | HybridAI | Firebase | tests it can state |
/// |---|---|---|
/// | `appVersion` | `app.version` | equals, oneOf (`.exactlyMatches([...])`), prefix (`.matches(['^…'])`), atLeast (`.>=`), below (`.<`) |
/// | `platform` | `device.os` | equals or a one-value oneOf (`== 'ios'`), only `ios`, `android` or `web` |
/// | `locale` | `device.language` | equals, oneOf (`in [...]`) |
/// | `country` | `device.country` | equals, oneOf (`in [...]`) |
/// | `percentile` | `percent('seed') between from and below` | any range; the seed as Firebase allows (`[A-Za-z0-9_.-]`, ≤ 32) |
/// | any other label (`osVersion`, `deviceClass`, …) | `app.customSignal['label']` | equals, oneOf, prefix (`.matches`), atLeast and below (`version(…) >= '3.2'`, `< '4'`) |
///
/// Firebase has no element for the OS version of an Apple or Android app (`app.operatingSystemAndVersion` is for
/// web apps), so `osVersion` travels as a custom signal like any other label.
enum FirebaseConditionExpression {
    /// The element a label is tested with.
    enum Element: Equatable {
        case appVersion, os, language, country
        case customSignal(String)

        init(label: String) {
            switch label {
            case "appVersion": self = .appVersion
            case "platform": self = .os
            case "locale": self = .language
            case "country": self = .country
            default: self = .customSignal(label)
            }
        }

        var label: String {
            switch self {
            case .appVersion: "appVersion"
            case .os: "platform"
            case .language: "locale"
            case .country: "country"
            case .customSignal(let key): key
            }
        }

        var name: String {
            switch self {
            case .appVersion: "app.version"
            case .os: "device.os"
            case .language: "device.language"
            case .country: "device.country"
            case .customSignal(let key): "app.customSignal['\(key)']"
            }
        }
    }

    /// The values Firebase's `device.os` takes.
    static let operatingSystems = ["android", "ios", "web"]
    /// The seed an unseeded `percent` imports with: Firebase hashes the installation id alone, so every unseeded
    /// condition takes the same slice, as one shared seed does here.
    static let unseededPercentSeed = "firebase-percent"

    // MARK: Printing

    /// `condition` as a Firebase expression; `path` is where the condition sits in the document, for errors.
    static func expression(for condition: ConfigCondition, at path: ConfigPath) throws(ConfigError) -> String {
        var clauses: [String] = []
        for (label, test) in condition.labels.sorted(by: { $0.key < $1.key }) {
            clauses += try self.clauses(Element(label: label), test, at: path.key("labels").key(label))
        }
        if let range = condition.percentile {
            let ppath = path.key("percentile")
            let seedAllowed = range.seed.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0)) }
            guard seedAllowed, range.seed.count <= 32 else {
                throw .firebase(path: ppath.key("seed").description, reason: "Firebase percent seeds use letters, digits, '_', '.' and '-', at most 32 characters")
            }
            clauses.append("percent('\(range.seed)') between \(number(range.from)) and \(number(range.below))")
        }
        guard !clauses.isEmpty else { throw .firebase(path: path.description, reason: "set labels or percentile") }
        return clauses.joined(separator: " && ")
    }

    private static func clauses(_ element: Element, _ test: LabelTest, at path: ConfigPath) throws(ConfigError) -> [String] {
        func refuse(_ field: String?, _ reason: String) -> ConfigError {
            .firebase(path: (field.map { path.key($0) } ?? path).description, reason: reason)
        }
        func quoted(_ value: String, _ field: String) throws(ConfigError) -> String {
            // How Firebase escapes quotes inside its strings is not documented; refusing beats guessing.
            guard !value.contains("'"), !value.contains("\\") else { throw refuse(field, "a Firebase condition value cannot hold ' or \\") }
            return "'\(value)'"
        }
        func list(_ values: [String], _ field: String) throws(ConfigError) -> String {
            var out: [String] = []
            for value in values { out.append(try quoted(value, field)) }
            return "[" + out.joined(separator: ", ") + "]"
        }
        func version(_ value: String, _ field: String) throws(ConfigError) -> String {
            // Firebase compares dotted numbers only (up to five parts); SemanticVersion ignores a suffix the same way.
            guard let parsed = SemanticVersion(value), parsed.components.count <= 5 else {
                throw refuse(field, "\"\(value)\" is not a version Firebase compares (dotted numbers, at most five parts)")
            }
            return try quoted(parsed.description, field)
        }
        if case .customSignal(let key) = element, key.contains("'") || key.contains("\\") {
            throw refuse(nil, "a Firebase custom signal key cannot hold ' or \\")
        }
        let values = test.oneOf ?? test.equals.map { [$0] }
        if test.equals != nil, test.oneOf != nil {
            throw refuse("oneOf", "write equals or oneOf, not both: Firebase states one list of values")
        }
        let valuesField = test.oneOf != nil ? "oneOf" : "equals"
        var out: [String] = []
        switch element {
        case .os:
            for field in ["prefix", "atLeast", "below"] where test.value(of: field) != nil {
                throw refuse(field, "device.os only tests equality (== 'ios'); write equals")
            }
            if let values {
                guard values.count == 1 else {
                    throw refuse(valuesField, "device.os takes one value and a Firebase condition cannot say 'or': write one condition per platform")
                }
                guard operatingSystems.contains(values[0]) else {
                    throw refuse(valuesField, "device.os is one of \(operatingSystems.joined(separator: ", ")), found \"\(values[0])\" (pass the platform label in that spelling)")
                }
                out.append("device.os == \(try quoted(values[0], valuesField))")
            }
        case .language, .country:
            for field in ["prefix", "atLeast", "below"] where test.value(of: field) != nil {
                throw refuse(field, "\(element.name) only tests membership (in [...]); list the values with oneOf")
            }
            if let values { out.append("\(element.name) in \(try list(values, valuesField))") }
        case .appVersion, .customSignal:
            let method = element == .appVersion ? "app.version." : "\(element.name)."
            if let values { out.append("\(method)exactlyMatches(\(try list(values, valuesField)))") }
            if let prefix = test.prefix {
                guard let pattern = regex(prefix: prefix) else {
                    throw refuse("prefix", "a prefix holding \\, [, ] or ^ cannot be written as a Firebase regular expression")
                }
                out.append("\(method)matches([\(try quoted(pattern, "prefix"))])")
            }
            for (field, op) in [("atLeast", ">="), ("below", "<")] {
                guard let value = test.value(of: field) else { continue }
                let v = try version(value, field)
                out.append(element == .appVersion ? "app.version.\(op)([\(v)])" : "version(\(element.name)) \(op) \(v)")
            }
        }
        return out
    }

    /// An anchored regular expression matching values that start with `prefix` (Firebase's `matches` finds the
    /// expression anywhere in the value). Metacharacters go in a one-character class (`[.]`) rather than behind a
    /// backslash, whose escaping inside a Firebase string is not documented; nil for a prefix that needs one.
    static func regex(prefix: String) -> String? {
        var out = "^"
        for character in prefix {
            if "\\[]^".contains(character) { return nil }
            out += ".$*+?()|{}".contains(character) ? "[\(character)]" : String(character)
        }
        return out
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension LabelTest {
    /// The value of a single-valued test by its JSON name.
    fileprivate func value(of field: String) -> String? {
        switch field {
        case "equals": equals
        case "prefix": prefix
        case "atLeast": atLeast
        case "below": below
        default: nil
        }
    }
}
