/// Sends one HTTP request for ``AppStoreServerAPIClient`` and returns the whole response.
///
/// The core library does no networking; `AppStoreServerHTTP.AsyncHTTPClientTransport` is the
/// production implementation and tests supply their own. Implementations return every response,
/// whatever its status, and throw only when no response was received (connection refused, timeout,
/// TLS failure, …) or the body exceeded their size limit (``AppStoreHTTPTransportError``).
public protocol AppStoreHTTPTransport: Sendable {
    /// Performs `request` and returns the response.
    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse
}

/// Failures a transport reports that are not connection problems.
public enum AppStoreHTTPTransportError: Error, Equatable, Sendable {
    /// The response body was larger than the transport accepts.
    case responseTooLarge(limit: Int)
}
