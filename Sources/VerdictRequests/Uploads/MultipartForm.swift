import Foundation

/// The parts of a `multipart/form-data` body (RFC 7578): each field's name, its file name when it
/// is a file, and its bytes. Small by design: the console's replay form, at most 1 MiB.
public struct MultipartForm: Sendable {
    /// One part: its field name, its file name when it is a file, and its bytes.
    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        public var data: Data
    }

    public var parts: [Part]

    /// The text of field `name`, nil when absent.
    public func text(_ name: String) -> String? {
        parts.first { $0.name == name }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// The uploaded file of field `name`, nil when absent or empty.
    public func file(_ name: String) -> Part? {
        parts.first { $0.name == name && $0.filename != nil && !$0.data.isEmpty }
    }

    /// The parts of `body`, a form whose parts are separated by `--boundary` (400 `MALFORMED_FORM`
    /// when there is none). Parts without a name are skipped.
    public static func parse(_ body: Data, boundary: String) throws(RequestBodyError) -> MultipartForm {
        let delimiter = Data(("--" + boundary).utf8)
        let separator = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else {
            throw .badRequest("MALFORMED_FORM", "the form has no parts")
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
