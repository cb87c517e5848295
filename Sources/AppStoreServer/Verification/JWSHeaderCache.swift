import Foundation
import Synchronization

/// Remembers decoded JWS headers by their exact Base64URL text.
///
/// Every payload signed under one certificate chain carries the same multi-kilobyte header, so
/// decoding its JSON once per distinct text saves most of the non-cryptographic work of a
/// verification. Only successfully decoded headers of plausible size are kept (so hostile input
/// cannot pin large strings in memory); the memo is bounded and simply forgets everything when full.
final class JWSHeaderCache: Sendable {
    /// Headers longer than this (Base64URL characters) are decoded but not remembered; Apple's,
    /// with three certificates, are a few kilobytes.
    static let maximumRememberedLength = 16 * 1024

    private let capacity: Int
    private let headers = Mutex<[String: JWSHeader]>([:])

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The decoded header of `parts`, from the memo or freshly decoded.
    func header(of parts: CompactJWS) throws(VerificationError) -> JWSHeader {
        if let known = headers.withLock({ $0[parts.headerSegment] }) {
            return known
        }
        let header = try JWSHeader.decode(parts.header)
        guard parts.headerSegment.utf8.count <= Self.maximumRememberedLength else { return header }
        headers.withLock { headers in
            if headers.count >= capacity { headers.removeAll(keepingCapacity: true) }
            headers[parts.headerSegment] = header
        }
        return header
    }
}
