import AppStoreServer
import AppStoreSimulator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// The service's router tested in-process (HummingbirdTesting's `.router` framework: no socket,
/// no simulator, no job worker) on SQLite in memory — for routing, authentication, validation and
/// error tables. Every answer is checked against the OpenAPI document, as in ``ServiceHarness``.
struct RouterHarness: Sendable {
    static let token = ServiceHarness.token

    let service: VerdictServer
    let client: any TestClientProtocol

    /// An answer with its headers.
    struct Answer {
        var status: Int
        var headers: HTTPFields
        var body: Data
    }

    /// Sends a request through the router.
    func send(
        _ method: HTTPRequest.Method, _ path: String, body: Data? = nil, contentType: String? = "application/json",
        token: String? = RouterHarness.token, headers extra: HTTPFields = [:]
    ) async throws -> Answer {
        var headers = extra
        if let contentType, body != nil { headers[.contentType] = contentType }
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        let answer = Answer(status: Int(response.status.code), headers: response.headers, body: Data(response.body.readableBytesView))
        for violation in OpenAPIContract.service.violations(method: method.rawValue, path: path, status: answer.status, body: answer.body) {
            Issue.record("the answer breaks the OpenAPI document: \(violation)")
        }
        return answer
    }

    /// ``ServiceHarness/request(_:_:body:contentType:token:)``'s shape, so a table runs on either.
    func request(
        _ method: HTTPMethod, _ path: String, body: Data? = nil, contentType: String? = "application/json",
        token: String? = RouterHarness.token
    ) async throws -> (status: Int, body: Data) {
        let answer = try await send(HTTPRequest.Method(method.rawValue)!, path, body: body, contentType: contentType, token: token)
        return (answer.status, answer.body)
    }

    /// Runs `body` against a fresh service on SQLite in memory (the shipped rules, a simulator
    /// root trusted, no App Store API credentials).
    static func with(extraSettings: [String: String] = [:], _ body: @escaping @Sendable (RouterHarness) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-router-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rootFile = directory.appendingPathComponent("root.der")
        try Self.rootCertificate.write(to: rootFile)
        var settings = [
            "VERDICT_DATABASE_URL": "sqlite::memory:",
            "VERDICT_RULES_DIR": ServiceHarness.rulesDirectory,
            "VERDICT_BUNDLE_ID": ServiceHarness.bundleId,
            "VERDICT_APP_APPLE_ID": "1234567890",
            "VERDICT_ENVIRONMENTS": "Sandbox",
            "VERDICT_ROOT_CERTIFICATES": rootFile.path,
            "VERDICT_API_TOKENS": token,
            "VERDICT_RECONCILE_INTERVAL": "0",
            "VERDICT_LOG_LEVEL": "critical",
        ]
        settings.merge(extraSettings) { _, new in new }
        let configuration = try ServiceConfiguration(reader: try await ConfigurationSources.reader(environment: settings))
        let service = try await VerdictServer.open(configuration: configuration, logger: TestDatabase.logger)
        do {
            try await Application(router: service.makeRouter()).test(.router) { client in
                try await body(RouterHarness(service: service, client: client))
            }
        } catch {
            try? await service.shutdown()
            throw error
        }
        try await service.shutdown()
    }

    /// The hierarchy whose root the verifier trusts; its leaf signs what a test needs signed.
    static let pki: SimulatorPKI = try! SimulatorPKI()
    private static let rootCertificate: Data = pki.rootCertificateDER
}
