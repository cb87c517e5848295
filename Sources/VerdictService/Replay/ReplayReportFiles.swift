import Foundation
import RuleEngine

/// The replay report as files: JSON (pretty, sorted keys) and the self-contained HTML page.
public enum ReplayReportFiles {
    /// The JSON report.
    public static func json(_ report: ReplayReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(report)
    }
}
