import Foundation

/// A JSON request body of Verdict's API: decoded by ``ServiceRequestDecoder`` through Hummingbird's
/// `request.decode(as:context:)`, which also applies the body's size limit and names what was
/// expected when the body does not decode.
protocol RequestBody: Decodable {
    /// The largest accepted body (413 `PAYLOAD_TOO_LARGE` beyond it).
    static var maximumBytes: Int { get }
    /// What the body should be, for the 400 `MALFORMED_JSON` message ("the body is not …").
    static var expected: String { get }
}

extension RequestBody {
    static var maximumBytes: Int { 16 * 1024 }
    static var expected: String { "a JSON object" }
}
