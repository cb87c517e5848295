import Foundation
import Hummingbird

/// The parts of a `multipart/form-data` body (RFC 7578): each field's name, its file name when it
/// is a file, and its bytes. Small by design: the console's replay form, at most 1 MiB.
struct MultipartForm {
    struct Part {
        var name: String
        var filename: String?
        var data: Data
    }

    var parts: [Part]

    /// The text of field `name`, nil when absent.
    func text(_ name: String) -> String? {
        parts.first { $0.name == name }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// The uploaded file of field `name`, nil when absent or empty.
    func file(_ name: String) -> Part? {
        parts.first { $0.name == name && $0.filename != nil && !$0.data.isEmpty }
    }

    /// Reads the request's body (400 `MALFORMED_FORM` when it is not multipart/form-data).
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

    static func parse(_ body: Data, boundary: String) throws -> MultipartForm {
        let delimiter = Data(("--" + boundary).utf8)
        let separator = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else {
            throw ServiceError.badRequest("MALFORMED_FORM", "the form has no parts")
        }
        cursor = first.upperBound
        while let next = body.range(of: delimiter, in: cursor..<body.endIndex) {
            // Between two delimiters: CRLF, headers, a blank line, the content, CRLF.
            let section = body[cursor..<next.lowerBound]
            cursor = next.upperBound
            guard let split = section.range(of: separator) else { continue }
            let headers = String(decoding: section[section.startIndex..<split.lowerBound], as: UTF8.self)
            var content = section[split.upperBound...]
            if content.suffix(2) == Data("\r\n".utf8) { content = content.dropLast(2) }
            guard let disposition = headers.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
                  let name = parameter("name", in: disposition)
            else { continue }
            parts.append(Part(name: name, filename: parameter("filename", in: disposition), data: Data(content)))
        }
        return MultipartForm(parts: parts)
    }

    /// A `key="value"` parameter of a header line.
    private static func parameter(_ key: String, in line: Substring) -> String? {
        for item in line.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where item.hasPrefix(key + "=") {
            return String(item.dropFirst(key.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
