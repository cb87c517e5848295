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
    /// The client used for the requests, with their deadline and the response cap.
    public let client: CappedHTTPClient

    /// A transport using `client` (the process-wide shared client, 30 s, 1 MiB by default).
    public init(client: CappedHTTPClient = CappedHTTPClient()) {
        self.client = client
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
        let response = try await client.execute(httpRequest)
        let body = try await client.body(of: response)
        return AppStoreHTTPResponse(
            status: Int(response.status.code),
            headers: response.headers.map { (name: $0.name, value: $0.value) },
            body: Data(body.readableBytesView)
        )
    }
}
