import AsyncHTTPClient
import NIOHTTP1

/// A request whose response headers a test needs.
struct HTTPClientRequestBuilder {
    var request: HTTPClientRequest

    init(url: String) { request = HTTPClientRequest(url: url) }

    mutating func header(_ name: String, _ value: String) { request.headers.add(name: name, value: value) }

    func send() async throws -> (HTTPHeaders, Int) {
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return (response.headers, Int(response.status.code))
    }
}
