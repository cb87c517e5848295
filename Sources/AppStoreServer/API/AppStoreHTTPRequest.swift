import Foundation

/// An HTTP request to the App Store Server API, as handed to an ``AppStoreHTTPTransport``.
public struct AppStoreHTTPRequest: Sendable {
    /// The HTTP method (`GET`, `POST`, `PUT`).
    public var method: String
    /// The absolute URL, path segments and query already percent-encoded.
    public var url: URL
    /// Header fields in order (names as written; compare case-insensitively).
    public var headers: [(name: String, value: String)]
    /// The body, or nil for none.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name` (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
