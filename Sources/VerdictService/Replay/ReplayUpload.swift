import AppStoreServer
import Foundation
import Hummingbird
import RuleEngine
import VerdictRequests

/// Reads the body of `POST /v1/rules/replay`: a JSON object (`{"files": {name: text}, "baseline",
/// "since", "until", "section", "sample"}`), or a tar or zip of the bundle folder
/// (`application/x-tar`, `application/zip`; the settings then in the query string). Refuses
/// anything else with 415, more than 1 MiB with 413, a malformed body with 400 and invalid
/// settings or file names with 422.
enum ReplayUpload {
    static func read(_ request: Request) async throws -> ReplayRequest {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        switch mediaType {
        case "application/json":
            return try fromJSON(try await JSONBody.collect(request, limit: ReplayRequest.maximumBytes)).validated()
        case "application/x-tar", "application/tar":
            let data = try await JSONBody.collectBytes(request, limit: ReplayRequest.maximumBytes)
            do {
                return try fromArchive(try TarArchive.files(in: data), request).validated()
            } catch let error as TarArchive.Malformed {
                throw ServiceError.badRequest("MALFORMED_ARCHIVE", error.description)
            }
        case "application/zip":
            let data = try await JSONBody.collectBytes(request, limit: ReplayRequest.maximumBytes)
            do {
                let entries = try ZipArchive.files(in: data, limit: 4 * ReplayRequest.maximumBytes)
                return try fromArchive(entries, request).validated()
            } catch let error as ZipArchive.Malformed {
                throw ServiceError.badRequest("MALFORMED_ARCHIVE", error.description)
            }
        default:
            throw ServiceError(
                .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE",
                message: "send the candidate as application/json ({\"files\": {name: text}}), application/x-tar "
                    + "(tar -cf - -C Rules .) or application/zip (cd Rules && zip -r - .)")
        }
    }

    private static let fields: Set<String> = ["files", "baseline", "since", "until", "section", "sample"]

    static func fromJSON(_ data: Data) throws -> ReplayRequest {
        // Proxies keep a repeated member's last value, Foundation the first: refused, not read one way.
        if let name = JSONDuplicateKeys.firstDuplicate(in: data) { throw ServiceError.duplicateKey(name) }
        guard let object = JSONValue.parse(data)?.objectValue else {
            throw ServiceError.badRequest("MALFORMED_JSON", "the body is not a JSON object with the candidate's files")
        }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw ServiceError.badRequest(
                "UNKNOWN_FIELD", "'\(unknown)' is not a field here (fields: \(fields.sorted().joined(separator: ", ")))")
        }
        guard let filesObject = object["files"]?.objectValue else {
            throw object["files"] == nil ? ServiceError.badRequest("MISSING_FIELD", "'files' is required")
                : ServiceError.badRequest("INVALID_FIELD", "'files' must be an object of file name → text")
        }
        var files: [String: String] = [:]
        for (name, value) in filesObject {
            guard let text = value.stringValue else {
                throw ServiceError.badRequest("INVALID_FIELD", "'files.\(name)' must be the file's text")
            }
            files[name] = text
        }
        func string(_ name: String) throws -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else { throw ServiceError.badRequest("INVALID_FIELD", "'\(name)' must be a string") }
            return text
        }
        func time(_ name: String) throws -> Int64? {
            guard let value = object[name] else { return nil }
            if let number = value.integerValue { return number }
            if let text = value.stringValue, let date = InternetDateTime.parse(text) { return date.appStoreMilliseconds }
            throw ServiceError.badRequest("INVALID_FIELD", "'\(name)' must be UNIX milliseconds or an RFC 3339 time")
        }
        var sample: Int?
        if let value = object["sample"] {
            guard let number = value.integerValue, let count = Int(exactly: number) else {
                throw ServiceError.badRequest("INVALID_FIELD", "'sample' must be a whole number")
            }
            sample = count
        }
        return ReplayRequest(
            files: files, baseline: try string("baseline") ?? "recorded", since: try time("since"), until: try time("until"),
            section: try string("section") ?? "both", sample: sample)
    }

    /// The bundle files of an archive of the folder, with the settings of the query string.
    static func fromArchive(_ entries: [(path: String, contents: Data)], _ request: Request) throws -> ReplayRequest {
        let files = try bundleFiles(entries)
        func time(_ name: String) throws -> Int64? {
            guard let text = try request.query(name) else { return nil }
            if let number = Int64(text) { return number }
            if let date = InternetDateTime.parse(text) { return date.appStoreMilliseconds }
            throw ServiceError.badRequest("INVALID_PARAMETER", "'\(name)' must be UNIX milliseconds or an RFC 3339 time")
        }
        var sample: Int?
        if let text = try request.query("sample") {
            guard let count = Int(text) else { throw ServiceError.badRequest("INVALID_PARAMETER", "'sample' must be a whole number") }
            sample = count
        }
        return ReplayRequest(
            files: files, baseline: try request.query("baseline") ?? "recorded", since: try time("since"),
            until: try time("until"), section: try request.query("section") ?? "both", sample: sample)
    }

    /// The bundle files of an archive of the folder: directly in it, or in the one folder inside it
    /// (as `tar -cf - Rules` stores them); other files are not part of the bundle.
    static func bundleFiles(_ entries: [(path: String, contents: Data)]) throws -> [String: String] {
        var files: [String: String] = [:]
        for entry in entries {
            let parts = entry.path.split(separator: "/")
            guard parts.count <= 2, let name = parts.last.map(String.init), RuleBundleFiles.isBundleFile(name) else { continue }
            guard let text = String(data: entry.contents, encoding: .utf8) else {
                throw ServiceError.unprocessable("INVALID_FILES", "'\(entry.path)' is not UTF-8 text")
            }
            files[name] = text
        }
        return files
    }
}
