import Foundation
import Hummingbird
import VerdictRequests

extension MultipartForm {
    /// Reads the request's body (400 `MALFORMED_FORM` when it is not multipart/form-data), at most
    /// `limit` bytes (413).
    static func read(_ request: Request, limit: Int) async throws -> MultipartForm {
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
              let boundary = contentType.split(separator: ";").lazy.map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.hasPrefix("boundary=") })?.dropFirst("boundary=".count)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"")), !boundary.isEmpty
        else {
            throw ServiceError.badRequest("MALFORMED_FORM", "the form must be sent as multipart/form-data")
        }
        return try parse(try await JSONBody.collectBytes(request, limit: limit), boundary: boundary)
    }
}
