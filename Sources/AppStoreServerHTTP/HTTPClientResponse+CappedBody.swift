import AppStoreServer
import AsyncHTTPClient
import NIOCore

extension HTTPClientResponse {
    /// Collects the whole body, refusing one larger than `limit` bytes.
    ///
    /// Used through ``CappedHTTPClient/body(of:)`` by ``AsyncHTTPClientTransport`` and
    /// ``AsyncHTTPClientOCSPRequester``, which each map an oversized body to their own failure.
    ///
    /// - Throws: `AppStoreHTTPTransportError.responseTooLarge(limit:)` when the body exceeds `limit`;
    ///   any other error of the body stream (connection lost, timeout, cancellation) as it is.
    func collectBody(upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw AppStoreHTTPTransportError.responseTooLarge(limit: limit)
        }
    }
}
