import AppStoreServer
import Foundation

/// A JSON request body of Verdict's API. The service decodes it through Hummingbird's
/// `request.decode(as:context:)`, which applies the content type and ``maximumBytes`` and then
/// calls ``decoded(from:)``; the fuzz target calls ``decoded(from:)`` on arbitrary bytes.
public protocol JSONRequestBody: Decodable, Sendable {
    /// The largest accepted body (413 `PAYLOAD_TOO_LARGE` beyond it).
    static var maximumBytes: Int { get }
    /// What the body should be, for the 400 `MALFORMED_JSON` message ("the body is not …").
    static var expected: String { get }
}

extension JSONRequestBody {
    public static var maximumBytes: Int { 16 * 1024 }
    public static var expected: String { "a JSON object" }

    /// The body read from `data`: no repeated member names (400 `DUPLICATE_KEY`: proxies keep a
    /// repeated member's last value, Foundation the first, so such a body is refused rather than
    /// read one way), then the type's own decoding. A ``RequestBodyError`` thrown by a field's
    /// check is the answer as it is; any other decoding failure is 400 `MALFORMED_JSON` naming
    /// what was expected.
    public static func decoded(from data: Data) throws(RequestBodyError) -> Self {
        if let name = JSONDuplicateKeys.firstDuplicate(in: data) { throw .duplicateKey(name) }
        do {
            return try JSONDecoder().decode(Self.self, from: data)
        } catch let error as RequestBodyError {
            throw error
        } catch {
            throw .badRequest("MALFORMED_JSON", "the body is not \(expected)")
        }
    }
}
