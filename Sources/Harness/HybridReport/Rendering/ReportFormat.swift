import Foundation

/// An output format of `hybrid report`.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
    /// `report.md`: GitHub PR comment / step summary.
    case markdown = "md"
    /// `report.html`: self-contained page with charts.
    case html
    /// `report.json`: the ``RunReport`` schema.
    case json
    /// `junit.xml`: one test case per (arm, gate).
    case junit

    /// The file name written for this format.
    public var fileName: String {
        switch self {
        case .markdown: "report.md"
        case .html: "report.html"
        case .json: "report.json"
        case .junit: "junit.xml"
        }
    }

    /// Parses `md,html,json,junit` (also `markdown`, `xml`); nil on an unknown name.
    public static func parseList(_ text: String) -> [ReportFormat]? {
        var formats: [ReportFormat] = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            let format: ReportFormat? = switch name {
            case "md", "markdown": .markdown
            case "html": .html
            case "json": .json
            case "junit", "xml": .junit
            default: nil
            }
            guard let format else { return nil }
            if !formats.contains(format) { formats.append(format) }
        }
        return formats.isEmpty ? nil : formats
    }
}
