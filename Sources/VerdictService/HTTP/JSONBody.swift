import AppStoreServer
import Foundation
import Hummingbird

/// Request and response bodies of Verdict's JSON API.
enum JSONBody {
    /// The request body, checked for a JSON content type and collected up to `limit` bytes (415 and
    /// 413 otherwise). Repeated member names are the reader's to refuse (`JSONRequestBody.decoded(from:)`).
    static func collect(_ request: Request, limit: Int) async throws -> Data {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "application/json" else {
            throw ServiceError(.unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE", message: "the body must be application/json")
        }
        return try await collectBytes(request, limit: limit)
    }

    /// The request body as it is, collected up to `limit` bytes (413 beyond).
    static func collectBytes(_ request: Request, limit: Int) async throws -> Data {
        let tooLarge = ServiceError(.contentTooLarge, code: "PAYLOAD_TOO_LARGE", message: "the body is larger than \(limit) bytes")
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge
        }
        var buffer = ByteBuffer()
        for try await chunk in request.body {
            guard buffer.readableBytes + chunk.readableBytes <= limit else { throw tooLarge }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
        }
        return Data(buffer.readableBytesView)
    }

    /// A JSON response (sorted keys).
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder.service.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// Already-encoded JSON embedded as is in an encoded response (stored results, decoded payloads).
struct JSONFragment: Encodable {
    let text: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = JSONValue.parse(Data(text.utf8)) {
            try container.encode(value)
        } else {
            try container.encode(text)
        }
    }
}
