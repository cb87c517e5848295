import Foundation

/// An HTTP response from the App Store Server API, as returned by an ``AppStoreHTTPTransport``.
public struct AppStoreHTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields in order (names as received; compare case-insensitively).
    public var headers: [(name: String, value: String)]
    /// The complete body (empty when there is none).
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
