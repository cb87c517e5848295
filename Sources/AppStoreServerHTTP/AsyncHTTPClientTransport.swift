import AppStoreServer
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The production ``AppStoreHTTPTransport``: sends App Store Server API requests with AsyncHTTPClient.
///
/// Each request gets a deadline (30 s by default, as Apple's libraries use) and its response body is
/// collected up to a cap (1 MiB by default); a larger body throws
/// `AppStoreHTTPTransportError.responseTooLarge`, which the client reports as an unusable response
/// rather than a retryable connection failure. Any other error (connect, TLS, timeout) propagates
/// and the client reports it as a retryable transport failure.
public struct AsyncHTTPClientTransport: AppStoreHTTPTransport {
    /// The client used for the requests.
    public let httpClient: HTTPClient
    /// The deadline of one request, from sending to the end of the response head.
    public let timeout: TimeAmount
    /// The largest response body accepted, in bytes.
    public let maximumResponseBytes: Int

    /// A transport using `httpClient` (the process-wide shared client by default).
    public init(
        httpClient: HTTPClient = .shared,
        timeout: TimeAmount = .seconds(30),
        maximumResponseBytes: Int = 1024 * 1024
    ) {
        self.httpClient = httpClient
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    public func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        var httpRequest = HTTPClientRequest(url: request.url.absoluteString)
        httpRequest.method = HTTPMethod(rawValue: request.method)
        for header in request.headers {
            httpRequest.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            httpRequest.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await httpClient.execute(httpRequest, timeout: timeout)
        let body = try await response.collectBody(upTo: maximumResponseBytes)
        return AppStoreHTTPResponse(
            status: Int(response.status.code),
            headers: response.headers.map { (name: $0.name, value: $0.value) },
            body: Data(body.readableBytesView)
        )
    }
}
