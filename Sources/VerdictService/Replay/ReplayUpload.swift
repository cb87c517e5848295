import Foundation
import Hummingbird
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
            return try ReplayRequest.fromJSON(try await JSONBody.collect(request, limit: ReplayRequest.maximumBytes)).validated()
        case "application/x-tar", "application/tar", "application/zip":
            let data = try await JSONBody.collectBytes(request, limit: ReplayRequest.maximumBytes)
            let format: ReplayRequest.ArchiveFormat = mediaType == "application/zip" ? .zip : .tar
            return try ReplayRequest.fromArchive(data, format: format, setting: { try request.query($0) }).validated()
        default:
            throw ServiceError(
                .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE",
                message: "send the candidate as application/json ({\"files\": {name: text}}), application/x-tar "
                    + "(tar -cf - -C Rules .) or application/zip (cd Rules && zip -r - .)")
        }
    }
}
