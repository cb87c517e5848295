import AppStoreServer
import Foundation
import RuleEngine

/// Reading a replay candidate as it is uploaded to `POST /v1/rules/replay` or the console: a JSON
/// object (`{"files": {name: text}, "baseline", "since", "until", "section", "sample"}`), or a tar
/// or zip of the bundle folder whose settings come from elsewhere (the query string, the form).
/// Every refusal is a ``RequestBodyError``: 400 for a body that cannot be read, 422 for files that
/// are not the bundle's (``validated()`` checks the settings).
extension ReplayRequest {
    /// An archive of the bundle folder.
    public enum ArchiveFormat: Sendable {
        case tar, zip

        /// The format of an uploaded file by its first bytes: a zip starts with its first local
        /// header ("PK"); anything else is read as a tar.
        public init(sniffing data: Data) {
            self = data.starts(with: [0x50, 0x4b]) ? .zip : .tar
        }
    }

    private static let fields: Set<String> = ["files", "baseline", "since", "until", "section", "sample"]

    /// The candidate of a JSON body (not yet ``validated()``).
    public static func fromJSON(_ data: Data) throws(RequestBodyError) -> ReplayRequest {
        // Proxies keep a repeated member's last value, Foundation the first: refused, not read one way.
        if let name = JSONDuplicateKeys.firstDuplicate(in: data) { throw .duplicateKey(name) }
        guard let object = JSONValue.parse(data)?.objectValue else {
            throw .badRequest("MALFORMED_JSON", "the body is not a JSON object with the candidate's files")
        }
        try RequestBodyError.refuseUnknown(object.keys, fields: fields)
        guard let filesObject = object["files"]?.objectValue else {
            throw object["files"] == nil ? .badRequest("MISSING_FIELD", "'files' is required")
                : .invalidField("files", "an object of file name → text")
        }
        var files: [String: String] = [:]
        for (name, value) in filesObject {
            guard let text = value.stringValue else { throw .invalidField("files.\(name)", "the file's text") }
            files[name] = text
        }
        func string(_ name: String) throws(RequestBodyError) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else { throw .invalidField(name, "a string") }
            return text
        }
        func time(_ name: String) throws(RequestBodyError) -> Int64? {
            guard let value = object[name] else { return nil }
            if let number = value.integerValue { return number }
            if let text = value.stringValue, let date = InternetDateTime.parse(text) { return date.appStoreMilliseconds }
            throw .invalidField(name, "UNIX milliseconds or an RFC 3339 time")
        }
        var sample: Int?
        if let value = object["sample"] {
            guard let number = value.integerValue, let count = Int(exactly: number) else { throw .invalidField("sample", "a whole number") }
            sample = count
        }
        return ReplayRequest(
            files: files, baseline: try string("baseline") ?? "recorded", since: try time("since"), until: try time("until"),
            section: try string("section") ?? "both", sample: sample)
    }

    /// The candidate of an archive, with the settings `setting` gives by name (a query string's
    /// parameters; 400 `INVALID_PARAMETER` for a time or sample it cannot read). Not yet ``validated()``.
    public static func fromArchive(
        _ data: Data, format: ArchiveFormat, setting: (String) throws -> String?
    ) throws -> ReplayRequest {
        let files = try files(inArchive: data, format: format)
        func time(_ name: String) throws -> Int64? {
            guard let text = try setting(name) else { return nil }
            if let number = Int64(text) { return number }
            if let date = InternetDateTime.parse(text) { return date.appStoreMilliseconds }
            throw RequestBodyError.badRequest("INVALID_PARAMETER", "'\(name)' must be UNIX milliseconds or an RFC 3339 time")
        }
        var sample: Int?
        if let text = try setting("sample") {
            guard let count = Int(text) else { throw RequestBodyError.badRequest("INVALID_PARAMETER", "'sample' must be a whole number") }
            sample = count
        }
        return ReplayRequest(
            files: files, baseline: try setting("baseline") ?? "recorded", since: try time("since"),
            until: try time("until"), section: try setting("section") ?? "both", sample: sample)
    }

    /// The bundle files of an archive of the folder: directly in it, or in the one folder inside it
    /// (as `tar -cf - Rules` stores them); other files are not part of the bundle. 400
    /// `MALFORMED_ARCHIVE` (prefixed with `name`, the uploaded file's name, when given) for an
    /// archive that cannot be read; 422 `INVALID_FILES` for a bundle file that is not UTF-8.
    public static func files(inArchive data: Data, format: ArchiveFormat, name: String? = nil) throws(RequestBodyError) -> [String: String] {
        func malformed(_ reason: String) -> RequestBodyError {
            .badRequest("MALFORMED_ARCHIVE", name.map { "\($0): \(reason)" } ?? reason)
        }
        let entries: [(path: String, contents: Data)]
        switch format {
        case .tar:
            do { entries = try TarArchive.files(in: data) } catch { throw malformed(error.description) }
        case .zip:
            do { entries = try ZipArchive.files(in: data, limit: 4 * maximumBytes) } catch { throw malformed(error.description) }
        }
        var files: [String: String] = [:]
        for entry in entries {
            let parts = entry.path.split(separator: "/")
            guard parts.count <= 2, let name = parts.last.map(String.init), RuleBundleFiles.isBundleFile(name) else { continue }
            guard let text = String(data: entry.contents, encoding: .utf8) else {
                throw .unprocessable("INVALID_FILES", "'\(entry.path)' is not UTF-8 text")
            }
            files[name] = text
        }
        return files
    }
}
