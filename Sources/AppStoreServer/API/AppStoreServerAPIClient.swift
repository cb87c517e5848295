import Crypto
import Foundation

/// A client for Apple's App Store Server API (`api.storekit.apple.com` and its Sandbox twin).
///
/// Every call mints a fresh bearer token (``AppStoreAPIToken``), sends the request through the
/// injected ``AppStoreHTTPTransport`` with `Accept: application/json`, `User-Agent: verdict/0.1` and,
/// when there is a body, `Content-Type: application/json` (`image/png` for Upload Image), and
/// decodes any 2xx response. Failures
/// are thrown as ``AppStoreAPIFailure``, which says whether a retry can help. The client never
/// retries by itself. Endpoints are in `AppStoreServerAPIClient+Endpoints.swift`, page-following
/// conveniences in `AppStoreServerAPIClient+Paging.swift`.
public struct AppStoreServerAPIClient: Sendable {
    /// Why a client could not be configured.
    public enum ConfigurationError: Error, Equatable, Sendable {
        /// The environment has no App Store Server API host (Xcode, local testing) and no base URL
        /// override was given.
        case unsupportedEnvironment(AppStoreEnvironment)
    }

    /// The production host.
    public static let productionURL = URL(string: "https://api.storekit.apple.com")!
    /// The sandbox host.
    public static let sandboxURL = URL(string: "https://api.storekit-sandbox.apple.com")!
    /// The `User-Agent` Verdict sends.
    public static let userAgent = "verdict/0.1"

    /// The environment the client talks to.
    public let environment: AppStoreEnvironment
    /// The URL every path is appended to.
    public let baseURL: URL
    /// The app's bundle identifier.
    public let bundleId: String
    private let token: AppStoreAPIToken
    private let transport: any AppStoreHTTPTransport

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - signingKey: the In-App Purchase key (see ``SigningKey``).
    ///   - environment: `.production` or `.sandbox` select Apple's hosts; others need `baseURL`.
    ///   - baseURL: overrides the host (for the local App Store simulator), may include a path prefix.
    ///   - clock: supplies "now" for token `iat` (injectable for tests).
    public init(
        signingKey: P256.Signing.PrivateKey,
        keyId: String,
        issuerId: String,
        bundleId: String,
        environment: AppStoreEnvironment,
        baseURL: URL? = nil,
        transport: any AppStoreHTTPTransport,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(ConfigurationError) {
        switch (baseURL, environment) {
        case (let url?, _): self.baseURL = url
        case (nil, .production): self.baseURL = Self.productionURL
        case (nil, .sandbox): self.baseURL = Self.sandboxURL
        case (nil, _): throw .unsupportedEnvironment(environment)
        }
        self.environment = environment
        self.bundleId = bundleId
        self.token = AppStoreAPIToken(
            privateKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, clock: clock
        )
        self.transport = transport
    }

    // MARK: - Request plumbing

    /// Sends a request and returns the response if its status is 2xx; throws otherwise.
    ///
    /// - Parameters:
    ///   - path: the path with every dynamic segment already passed through ``pathSegment(_:)``.
    ///   - contentType: the body's media type (JSON unless said otherwise).
    func send(
        _ method: String, _ path: String, query: [(name: String, value: String)] = [], body: Data? = nil,
        contentType: String = "application/json"
    ) async throws(AppStoreAPIFailure) -> AppStoreHTTPResponse {
        guard let url = url(path: path, query: query) else {
            throw .invalidRequest("cannot form a URL for \(path)")
        }
        let bearer: String
        do {
            bearer = try token.make()
        } catch {
            throw .invalidRequest("cannot sign the API token: \(error.code)")
        }
        var headers: [(name: String, value: String)] = [
            ("Authorization", "Bearer \(bearer)"),
            ("Accept", "application/json"),
            ("User-Agent", Self.userAgent),
        ]
        if body != nil { headers.append(("Content-Type", contentType)) }
        let request = AppStoreHTTPRequest(method: method, url: url, headers: headers, body: body)

        let response: AppStoreHTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as AppStoreHTTPTransportError {
            throw .invalidResponse(status: nil, "\(error)")
        } catch {
            throw .transport(error)
        }
        guard (200...299).contains(response.status) else { throw .httpError(response) }
        return response
    }

    /// Sends a request and decodes a 2xx body as `Response`.
    func send<Response: Decodable>(
        _ method: String, _ path: String, query: [(name: String, value: String)] = [], body: Data? = nil,
        decoding type: Response.Type
    ) async throws(AppStoreAPIFailure) -> Response {
        let response = try await send(method, path, query: query, body: body)
        do {
            return try AppStoreJSON.decoder().decode(Response.self, from: response.body)
        } catch {
            throw .invalidResponse(status: response.status, "undecodable \(Response.self) body: \(error)")
        }
    }

    /// Encodes a request body with Apple's JSON conventions (dates as integer milliseconds).
    func encode(_ value: some Encodable) throws(AppStoreAPIFailure) -> Data {
        do {
            return try AppStoreJSON.encoder().encode(value)
        } catch {
            throw .invalidRequest("cannot encode the request body: \(error)")
        }
    }

    /// Percent-encodes one path parameter so it stays a single segment; empty values and the dot
    /// segments `.` / `..` (which would change the path) are rejected.
    func pathSegment(_ value: String, name: String) throws(AppStoreAPIFailure) -> String {
        guard !value.isEmpty, value != ".", value != ".." else {
            throw .invalidRequest("invalid \(name) path parameter")
        }
        return Self.percentEncode(value)
    }

    private func url(path: String, query: [(name: String, value: String)]) -> URL? {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty {
            text += "?" + query.map { Self.percentEncode($0.name) + "=" + Self.percentEncode($0.value) }
                .joined(separator: "&")
        }
        return URL(string: text)
    }

    /// RFC 3986 unreserved characters pass; every other UTF-8 byte becomes `%XX`.
    static func percentEncode(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }
}
