import Foundation
import Hummingbird
import VerdictRequests

/// An error answer of Verdict's HTTP API: `{"error":{"code":"…","message":"…"}}` with a status.
///
/// Messages are written for the caller and never contain keys, tokens or signed payloads.
public struct ServiceError: Error, HTTPResponseError, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    /// Extra headers (e.g. `WWW-Authenticate`, `Retry-After`).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        let body = ErrorBody(error: .init(code: code, message: message))
        let data = (try? JSONEncoder.service.encode(body)) ?? Data("{}".utf8)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    struct ErrorBody: Codable, Equatable {
        struct Detail: Codable, Equatable {
            var code: String
            var message: String
        }
        var error: Detail
    }

    // MARK: Common answers

    public static func badRequest(_ code: String = "BAD_REQUEST", _ message: String) -> Self {
        Self(.badRequest, code: code, message: message)
    }
    /// 400 `DUPLICATE_KEY`: an object of the body names `name` twice (shown cut to 64 characters).
    public static func duplicateKey(_ name: String) -> Self { Self(RequestBodyError.duplicateKey(name)) }
    /// A refused request body, answered with its status (400 or 422).
    public init(_ refusal: RequestBodyError) {
        switch refusal.kind {
        case .badRequest: self.init(.badRequest, code: refusal.code, message: refusal.message)
        case .unprocessable: self.init(.unprocessableContent, code: refusal.code, message: refusal.message)
        }
    }
    public static func notFound(_ message: String) -> Self { Self(.notFound, code: "NOT_FOUND", message: message) }
    public static let unauthorized = Self(
        .unauthorized, code: "UNAUTHORIZED", message: "a valid 'Authorization: Bearer <token>' header is required",
        headers: [.wwwAuthenticate: "Bearer"]
    )
    public static func unprocessable(_ code: String, _ message: String) -> Self {
        Self(.unprocessableContent, code: code, message: message)
    }
    public static func unavailable(_ code: String = "UNAVAILABLE", _ message: String) -> Self {
        Self(.serviceUnavailable, code: code, message: message, headers: [.retryAfter: "5"])
    }
}

extension JSONEncoder {
    /// Verdict's API encoding: sorted keys, dates as integer milliseconds (Apple's convention).
    static var service: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
