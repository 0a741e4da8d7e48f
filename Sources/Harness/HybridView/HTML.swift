/// A fragment of HTML built from escaped text and fixed tags: the only way the viewer makes markup, so a model's
/// output (or a case id, or a run id) can never inject elements or scripts.
///
/// Tag and attribute names are string literals in the viewer's code; everything else goes through ``text(_:)`` or
/// an attribute value, both escaped.
struct HTML: Sendable {
    /// The markup so far.
    private(set) var markup = ""

    init() {}

    /// Markup from a renderer that escapes everything it prints (``HybridReport``'s HTML renderer).
    init(trusted markup: String) {
        self.markup = markup
    }

    /// Appends `text`, escaped.
    mutating func text(_ text: String) {
        markup += Self.escape(text)
    }

    /// Appends another fragment.
    mutating func append(_ fragment: HTML) {
        markup += fragment.markup
    }

    /// Appends `<name attributes>` … `</name>` with `content` inside.
    mutating func element(_ name: StaticString, _ attributes: [(String, String?)] = [], _ content: (inout HTML) -> Void) {
        open(name, attributes)
        content(&self)
        markup += "</\(name)>"
    }

    /// Appends an element holding only `text`, escaped.
    mutating func element(_ name: StaticString, _ attributes: [(String, String?)] = [], text: String) {
        element(name, attributes) { $0.text(text) }
    }

    /// Appends an element without content or end tag (`input`, `br`, `meta`).
    mutating func void(_ name: StaticString, _ attributes: [(String, String?)] = []) {
        open(name, attributes)
    }

    /// Attributes with a nil value are left out; an empty value gives a boolean attribute (`checked=""`).
    private mutating func open(_ name: StaticString, _ attributes: [(String, String?)]) {
        markup += "<\(name)"
        for (attribute, value) in attributes {
            guard let value else { continue }
            markup += " \(attribute)=\"\(Self.escape(value))\""
        }
        markup += ">"
    }

    /// Escapes the five characters that are markup in text and in quoted attribute values.
    static func escape(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
