import AppStoreServer
import AsyncHTTPClient
import NIOCore
import X509

/// Performs the OCSP queries of `SignedDataVerifier`'s online checks over AsyncHTTPClient.
///
/// Each query is a `POST` of the DER request to the responder URL from the certificate's Authority
/// Information Access extension with `Content-Type: application/ocsp-request`; the response body
/// is capped (1 MiB by default). A network error, timeout, cancellation, non-200 status or
/// oversized body is reported as `.terminalError(OCSPNetworkFailure)`, which the verifier turns
/// into `VerificationError.retryable` — the payload is not judged invalid because a responder was
/// unreachable. (swift-certificates also cancels a query after its own 10-second deadline;
/// cancellation is reported the same way.)
public struct AsyncHTTPClientOCSPRequester: OCSPRequester {
    /// The client used for the queries.
    public let httpClient: HTTPClient
    /// The HTTP timeout of one query.
    public let timeout: TimeAmount
    /// The largest response body accepted, in bytes.
    public let maximumResponseBytes: Int

    /// A requester using `httpClient` (the process-wide shared client by default).
    public init(
        httpClient: HTTPClient = .shared,
        timeout: TimeAmount = .seconds(30),
        maximumResponseBytes: Int = 1024 * 1024
    ) {
        self.httpClient = httpClient
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    public func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        var httpRequest = HTTPClientRequest(url: uri)
        httpRequest.method = .POST
        httpRequest.headers.add(name: "Content-Type", value: "application/ocsp-request")
        httpRequest.headers.add(name: "Accept", value: "application/ocsp-response")
        httpRequest.body = .bytes(request)
        do {
            let response = try await httpClient.execute(httpRequest, timeout: timeout)
            guard response.status == .ok else {
                return .terminalError(OCSPNetworkFailure(reason: "the OCSP responder answered HTTP \(response.status.code)"))
            }
            let body = try await response.collectBody(upTo: maximumResponseBytes)
            return .response(Array(body.readableBytesView))
        } catch AppStoreHTTPTransportError.responseTooLarge {
            return .terminalError(
                OCSPNetworkFailure(reason: "the OCSP response exceeds \(maximumResponseBytes) bytes")
            )
        } catch {
            return .terminalError(OCSPNetworkFailure(reason: "the OCSP request failed: \(String(describing: error).prefix(200))"))
        }
    }
}
