/// Why a ``StructuredOutput`` type has no schema to send: a property its decoding refuses, an enum without its cases,
/// a guide naming a property the type does not have. A mistake in the app's code, reported where it is (the type and
/// the property path) so a request fails with it instead of the process stopping; ``StructuredOutput/validateSchema()``
/// finds it in a unit test.
///
/// A struct over an internal kind, so a new kind of mistake does not break callers' switches.
public struct StructuredOutputError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        /// The type's `init(from:)` refused the placeholder values derivation decodes (the underlying error).
        case underivable(String)
        /// A `RawRepresentable` type that is not `CaseIterable`: its cases cannot be listed.
        case notCaseIterable(String)
        /// A `CaseIterable` enum without a case.
        case noCases(String)
        /// Guide names the type does not have, each with the closest name it does have (nil: none near), and the
        /// names it has.
        case unknownGuides([UnknownGuide], known: [String])
        /// A guide that is not an object of keywords.
        case guideNotObject
        /// A guide keyword outside ``SchemaDerivation/guideKeywords``.
        case unknownKeyword(String)
        /// A guide keyword for another kind of value.
        case keywordNotApplicable(String, appliesTo: [String], kind: String)
        /// The schema (declared or derived) is not one the validator accepts.
        case invalidSchema(String)
    }

    /// A guide name the type does not have, and the nearest name it has.
    struct UnknownGuide: Sendable, Equatable {
        var name: String
        var suggestion: String?
    }

    /// The ``StructuredOutput`` type, as Swift names it (`CityInfo`); ``description`` starts with it.
    let typeName: String
    /// Where in the type: the property path (`address.city`, `stops[]`) or the guide name; empty for the whole type.
    let path: String
    let kind: Kind

    init(typeName: String, path: String, kind: Kind) {
        self.typeName = typeName
        self.path = path
        self.kind = kind
    }

    /// The type, the property and what to change.
    public var description: String {
        let at = path.isEmpty ? typeName : "\(typeName).\(path)"
        switch kind {
        case .underivable(let problem):
            return "cannot derive the JSON Schema of \(at): \(problem); declare `static var schema` on \(typeName) "
                + "if its init(from:) does more than decode its keys"
        case .notCaseIterable(let enumType):
            return "cannot derive the JSON Schema of \(at): \(enumType) is RawRepresentable but not CaseIterable; "
                + "add CaseIterable so its cases become the schema's enum"
        case .noCases(let enumType):
            return "cannot derive the JSON Schema of \(at): \(enumType) has no cases, so no answer could decode"
        case .unknownGuides(let unknown, let known):
            let names = unknown.map { guide in
                "\"\(guide.name)\"" + (guide.suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
            }
            return "\(typeName).guides names \(names.joined(separator: ", ")), which \(typeName) does not have "
                + "(its properties: \(known.joined(separator: ", ")))"
        case .guideNotObject:
            return "\(typeName).guides[\"\(path)\"]: a guide is an object of JSON Schema keywords, such as [\"maxItems\": 3]"
        case .unknownKeyword(let keyword):
            return "\(typeName).guides[\"\(path)\"]: \"\(keyword)\" is not a guide keyword "
                + "(\(SchemaDerivation.guideKeywords.keys.sorted().joined(separator: ", ")))"
        case .keywordNotApplicable(let keyword, let applies, let kind):
            return "\(typeName).guides[\"\(path)\"]: \"\(keyword)\" applies to \(applies.joined(separator: " or ")) "
                + "values; this is \(kind)"
        case .invalidSchema(let problem):
            return "the JSON Schema of \(typeName) is not valid: \(problem)"
        }
    }
}

extension StructuredOutputError.UnknownGuide {
    /// `name` with the known name nearest to it when it is a likely misspelling (a few edits away).
    init(_ name: String, among known: [String]) {
        let scored = known.map { (name: $0, distance: Self.editDistance(name, $0)) }
        let nearest = scored.min { ($0.distance, $0.name) < ($1.distance, $1.name) }
        let tolerance = max(2, name.count / 3)
        self.init(name: name, suggestion: nearest.flatMap { $0.distance <= tolerance ? $0.name : nil })
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
