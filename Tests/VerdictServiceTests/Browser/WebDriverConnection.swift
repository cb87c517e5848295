import AppStoreServer
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The HTTP side of the W3C WebDriver protocol: sends one command (a method, a path under the
/// driver's URL and an optional JSON body) and answers the `value` member of the reply, or throws
/// the driver's ``WebDriverError``.
struct WebDriverConnection: Sendable {
    /// `http://127.0.0.1:<port>`.
    let baseURL: String

    /// Sends a command and answers its `value` (`null` when the reply has none). `timeout` bounds
    /// the whole exchange (the driver answers a navigation only once the page has loaded).
    func send(
        _ method: HTTPMethod, _ path: String, _ body: JSONValue? = nil, timeout: Duration = .seconds(60)
    ) async throws -> JSONValue {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout / .milliseconds(1))))
        // Screenshots of long pages are a few megabytes of Base64.
        let buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
        let reply = JSONValue.parse(Data(buffer.readableBytesView))
        let value = reply?.objectValue?["value"] ?? .null
        guard response.status == .ok else {
            throw WebDriverError(command: "\(method) \(path)", status: Int(response.status.code), value: value)
        }
        return value
    }
}

/// A command the driver refused or failed: its HTTP status, the W3C error code (`no such
/// element`, `javascript error`, `session not created`, …) and the driver's message. The stack
/// trace it sends is left out.
struct WebDriverError: Error, CustomStringConvertible {
    let command: String
    let status: Int
    let error: String
    let message: String

    init(command: String, status: Int, value: JSONValue) {
        self.command = command
        self.status = status
        error = value.objectValue?["error"]?.stringValue ?? "unknown error"
        message = value.objectValue?["message"]?.stringValue ?? ""
    }

    var description: String { "WebDriver \(command) answered \(status) \(error): \(message)" }
}
