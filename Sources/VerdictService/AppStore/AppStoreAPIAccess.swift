import AppStoreServer
import AppStoreServerHTTP
import Foundation
import OTelSemanticConventions
import Tracing

/// App Store Server API clients for the configured In-App Purchase key, one per environment,
/// with every call counted in the metrics. Without a key there are no clients, and work that
/// needs them waits in the queue (``unavailableReason``).
public struct AppStoreAPIAccess: Sendable {
    let clients: [AppStoreEnvironment: AppStoreServerAPIClient]
    /// Why no client exists (no key configured), for `/readyz` and waiting jobs.
    public let unavailableReason: String?

    public init(configuration: AppConfiguration, metrics: ServiceMetrics, transport: (any AppStoreHTTPTransport)? = nil) {
        guard let credentials = configuration.appStoreCredentials else {
            self.clients = [:]
            self.unavailableReason = configuration.appStoreCredentialsProblem ?? "no In-App Purchase key configured"
            return
        }
        let key = credentials.privateKey
        let metered = MeteredTransport(base: transport ?? AsyncHTTPClientTransport(), metrics: metrics)
        var clients: [AppStoreEnvironment: AppStoreServerAPIClient] = [:]
        for environment in [AppStoreEnvironment.production, .sandbox] {
            clients[environment] = try? AppStoreServerAPIClient(
                signingKey: key, keyId: credentials.keyId, issuerId: credentials.issuerId,
                bundleId: configuration.bundleId, environment: environment,
                baseURL: configuration.appStoreAPIURL, transport: metered
            )
        }
        self.clients = clients
        self.unavailableReason = nil
    }

    /// The client for `environment` (Sandbox for anything that is not Production), or a
    /// ``JobFailure/waiting(delayMilliseconds:_:)`` error when no key is configured.
    public func client(for environment: AppStoreEnvironment?) throws(JobFailure) -> AppStoreServerAPIClient {
        let target: AppStoreEnvironment = environment == .production ? .production : .sandbox
        guard let client = clients[target] else {
            throw .waiting(delayMilliseconds: 60_000, unavailableReason ?? "no App Store Server API client")
        }
        return client
    }

    public var isAvailable: Bool { !clients.isEmpty }
}

/// Counts App Store Server API calls by endpoint (path with identifiers replaced) and status, and
/// traces each as a client span with Apple's status and error code (never the request's
/// identifiers, its JWT or the signed data Apple answers with).
struct MeteredTransport: AppStoreHTTPTransport {
    let base: any AppStoreHTTPTransport
    let metrics: ServiceMetrics

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        let endpoint = Self.endpoint(method: request.method, path: request.url.path)
        return try await withSpan("App Store Server API \(endpoint)", ofKind: .client) { span in
            if span.isRecording {
                span.attributes.http.request.method = .init(rawValue: request.method)
                // `url.template` is still in development in the conventions (not in the stable set).
                span.attributes["url.template"] = endpoint
                if let host = request.url.host { span.attributes.server.address = host }
            }
            do {
                let response = try await base.send(request)
                metrics.appStoreCall(endpoint: endpoint, status: String(response.status))
                guard span.isRecording else { return response }
                span.attributes.http.response.statusCode = response.status
                if response.status >= 400 {
                    span.setStatus(SpanStatus(code: .error))
                    if let code = Self.errorCode(response.body) { span.attributes["apple.error_code"] = code }
                }
                return response
            } catch {
                metrics.appStoreCall(endpoint: endpoint, status: "network")
                span.attributes.error.type = .init(rawValue: "network")
                throw error
            }
        }
    }

    /// Apple's `errorCode` in an error body, if any.
    private static func errorCode(_ body: Data) -> Int? {
        struct ErrorBody: Decodable { var errorCode: Int? }
        return (try? JSONDecoder().decode(ErrorBody.self, from: body))?.errorCode
    }

    /// `GET /inApps/v2/history/{id}` for `/inApps/v2/history/2000000001`: segments after the
    /// known resource names are identifiers.
    static func endpoint(method: String, path: String) -> String {
        let segments = path.split(separator: "/")
        guard let start = segments.firstIndex(of: "inApps") else { return "\(method) other" }
        var parts: [String] = []
        for segment in segments[start...] {
            let isName = segment.allSatisfy { $0.isLetter } || segment == "v1" || segment == "v2"
            parts.append(isName ? String(segment) : "{id}")
        }
        return "\(method) /" + parts.joined(separator: "/")
    }
}
