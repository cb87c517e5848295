import Foundation
import RuleEngine

/// What a replay asked for through the API replays: the candidate bundle's files (name → text)
/// and the settings. Stored as the replay's request and read again by the job that runs it.
public struct ReplayRequest: Codable, Sendable, Equatable {
    /// Bundle files by name (`catalog.yaml`, `*.rules.yaml`, `*.tests.yaml`).
    public var files: [String: String]
    /// `recorded` (what was decided) or `active` (the service's active bundle, replayed too).
    public var baseline: String
    /// The period of decision times (UNIX milliseconds); nil ends are open.
    public var since: Int64?
    public var until: Int64?
    /// `offers`, `refunds`, `retention` or `both` (every section).
    public var section: String
    /// At most this many decisions per section.
    public var sample: Int?

    public init(files: [String: String], baseline: String, since: Int64?, until: Int64?, section: String, sample: Int?) {
        self.files = files
        self.baseline = baseline
        self.since = since
        self.until = until
        self.section = section
        self.sample = sample
    }

    public static let baselines = ["recorded", "active"]
    public static let sectionChoices = ["offers", "refunds", "retention", "both"]
    /// Limits of an upload.
    public static let maximumFiles = 64
    public static let maximumBytes = 1024 * 1024

    /// The sections to replay.
    public var sections: [Decision.Section] {
        switch section {
        case "offers": [.offers]
        case "refunds": [.refunds]
        case "retention": [.retention]
        default: [.offers, .refunds, .retention]
        }
    }

    /// The files as the bundle checker reads them, with paths under `candidate/`.
    public var bundleFiles: [BundleSourceFile] {
        files.keys.sorted().map { BundleSourceFile(path: "candidate/" + $0, text: files[$0] ?? "") }
    }

    /// Checks the settings and the file names (422 naming the first problem).
    public func validated() throws(RequestBodyError) -> ReplayRequest {
        guard Self.baselines.contains(baseline) else {
            throw RequestBodyError.unprocessable("INVALID_FIELD", "'baseline' must be recorded or active")
        }
        guard Self.sectionChoices.contains(section) else {
            throw RequestBodyError.unprocessable("INVALID_FIELD", "'section' must be offers, refunds, retention or both")
        }
        if let sample, sample < 1 { throw RequestBodyError.unprocessable("INVALID_FIELD", "'sample' must be at least 1") }
        if let since, let until, since >= until {
            throw RequestBodyError.unprocessable("INVALID_FIELD", "'since' must be before 'until'")
        }
        guard files.count <= Self.maximumFiles else {
            throw RequestBodyError.unprocessable("INVALID_FILES", "a candidate has at most \(Self.maximumFiles) files")
        }
        if let name = files.keys.sorted().first(where: { !RuleBundleFiles.isBundleFile($0) || $0.contains("/") }) {
            throw RequestBodyError.unprocessable(
                "INVALID_FILES", "'\(name)' is not a bundle file name (catalog.yaml, NAME.rules.yaml, NAME.tests.yaml)")
        }
        guard files.keys.contains(where: { $0.hasSuffix(".rules.yaml") }) else {
            throw RequestBodyError.unprocessable("INVALID_FILES", "the candidate has no *.rules.yaml file")
        }
        return self
    }
}
