public import Foundation

/// Writes a report's files into a directory (`reports/RUN/` by default in the CLI).
public enum ReportWriter {
    /// Writes each format's file into `directory` (created when missing) and returns the written paths.
    /// `report.json` keeps per-case data up to `caseDataLimit` results (see ``RunReport/defaultCaseDataLimit``).
    @discardableResult
    public static func write(
        _ report: RunReport, formats: [ReportFormat], to directory: URL,
        caseDataLimit: Int = RunReport.defaultCaseDataLimit
    ) throws(ReportError) -> [URL] {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritableFile(path: directory.path, reason: error.localizedDescription)
        }
        var written: [URL] = []
        for format in formats {
            let url = directory.appendingPathComponent(format.fileName)
            let data: Data
            switch format {
            case .markdown: data = Data(MarkdownReportRenderer().render(report).utf8)
            case .html: data = Data(HTMLReportRenderer().render(report).utf8)
            case .junit: data = Data(JUnitReportRenderer().render(report).utf8)
            case .json: data = try report.jsonData(includeCases: report.resultCount <= caseDataLimit)
            }
            do {
                try data.write(to: url, options: .atomic)
            } catch {
                throw .unwritableFile(path: url.path, reason: error.localizedDescription)
            }
            written.append(url)
        }
        return written
    }
}
