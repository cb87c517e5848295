import AsyncHTTPClient
import NIOCore

/// An AsyncHTTPClient with the limits of one exchange: a deadline and a cap on the response body.
/// Shared by ``AsyncHTTPClientTransport`` and ``AsyncHTTPClientOCSPRequester``.
public struct CappedHTTPClient: Sendable {
    /// The client used for the requests.
    public let httpClient: HTTPClient
    /// The deadline of one request, from sending to the end of the response head.
    public let timeout: TimeAmount
    /// The largest response body accepted, in bytes.
    public let maximumResponseBytes: Int

    /// Limits on `httpClient` (by default the process-wide client that is not traced: ``AsyncHTTPClient/HTTPClient/untraced``): 30 s and 1 MiB by default.
    public init(
        httpClient: HTTPClient = .untraced,
        timeout: TimeAmount = .seconds(30),
        maximumResponseBytes: Int = 1024 * 1024
    ) {
        self.httpClient = httpClient
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Sends `request` within the deadline; the response head.
    func execute(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        try await httpClient.execute(request, timeout: timeout)
    }

    /// The whole body of `response`, refusing one larger than ``maximumResponseBytes``.
    ///
    /// - Throws: `AppStoreHTTPTransportError.responseTooLarge(limit:)` as ``HTTPClientResponse/collectBody(upTo:)``.
    func body(of response: HTTPClientResponse) async throws -> ByteBuffer {
        try await response.collectBody(upTo: maximumResponseBytes)
    }
}
