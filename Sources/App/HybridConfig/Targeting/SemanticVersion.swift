/// A dotted numeric version (`3`, `3.2`, `18.0.1`), compared component by component with missing components as
/// zero, so `3.2` == `3.2.0` < `3.10`. Anything after the numeric part (`-beta`, `+build`, ` (22A)`) is ignored:
/// app and OS versions carry such suffixes, and conditions compare releases.
package struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numeric components, most significant first.
    package let components: [Int]

    /// Parses the leading dotted numbers of `text`; nil when it does not start with a number.
    package init?(_ text: String) {
        var components: [Int] = []
        var current: Int?
        for character in text.unicodeScalars {
            if ("0"..."9").contains(character) {
                let value = (current ?? 0) * 10 + Int(character.value - 48)
                guard value <= 1_000_000_000 else { return nil }
                current = value
            } else if character == ".", let value = current {
                components.append(value)
                current = nil
            } else {
                break
            }
        }
        if let current { components.append(current) }
        guard !components.isEmpty else { return nil }
        self.components = components
    }

    package static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        for i in 0..<max(lhs.components.count, rhs.components.count) {
            let l = i < lhs.components.count ? lhs.components[i] : 0
            let r = i < rhs.components.count ? rhs.components[i] : 0
            if l != r { return l < r }
        }
        return false
    }

    package static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    package func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    /// The components joined by dots.
    package var description: String { components.map(String.init).joined(separator: ".") }
}
