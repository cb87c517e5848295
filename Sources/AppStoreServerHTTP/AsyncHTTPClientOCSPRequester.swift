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
    /// The client used for the queries, with the timeout of one query and the response cap.
    public let client: CappedHTTPClient

    /// A requester using `client` (the process-wide shared client, 30 s, 1 MiB by default).
    public init(client: CappedHTTPClient = CappedHTTPClient()) {
        self.client = client
    }

    public func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        var httpRequest = HTTPClientRequest(url: uri)
        httpRequest.method = .POST
        httpRequest.headers.add(name: "Content-Type", value: "application/ocsp-request")
        httpRequest.headers.add(name: "Accept", value: "application/ocsp-response")
        httpRequest.body = .bytes(request)
        do {
            let response = try await client.execute(httpRequest)
            guard response.status == .ok else {
                return .terminalError(OCSPNetworkFailure(reason: "the OCSP responder answered HTTP \(response.status.code)"))
            }
            let body = try await client.body(of: response)
            return .response(Array(body.readableBytesView))
        } catch AppStoreHTTPTransportError.responseTooLarge {
            return .terminalError(
                OCSPNetworkFailure(reason: "the OCSP response exceeds \(client.maximumResponseBytes) bytes")
            )
        } catch {
            return .terminalError(OCSPNetworkFailure(reason: "the OCSP request failed: \(String(describing: error).prefix(200))"))
        }
    }
}
