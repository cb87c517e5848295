import Foundation
import Logging
import Testing
import VerdictStorage

/// The databases every service test runs on: SQLite always, PostgreSQL from
/// `VERDICT_TEST_POSTGRES_URL` (and on CI, where a missing URL fails instead of skipping).
enum ServiceBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var postgresServerURL: String? {
        ProcessInfo.processInfo.environment["VERDICT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }

    static var selected: [ServiceBackend] {
        postgresServerURL != nil || isCI ? [.sqlite, .postgres] : [.sqlite]
    }
}

/// A fresh, empty database for one test (a temporary SQLite file, or a new PostgreSQL database on the
/// test server), removed afterwards.
struct ServiceTestDatabase: Sendable {
    let backend: ServiceBackend
    let url: String
    let directory: URL
    private let drop: @Sendable () async -> Void

    static let logger: Logger = {
        var logger = Logger(label: "verdict.service.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["VERDICT_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    static func make(_ backend: ServiceBackend) async throws -> ServiceTestDatabase {
        let name = "verdict_svc_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(String(name))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            return ServiceTestDatabase(backend: backend, url: "sqlite:" + directory.path + "/verdict.sqlite", directory: directory) {
                try? FileManager.default.removeItem(at: directory)
            }
        case .postgres:
            guard let server = ServiceBackend.postgresServerURL else {
                throw ServiceTestError("VERDICT_TEST_POSTGRES_URL is not set and CI=true: the PostgreSQL service tests must run")
            }
            let url = try await DatabaseAdministration.createDatabase(serverURL: server, name: String(name), logger: logger)
            return ServiceTestDatabase(backend: backend, url: url, directory: directory) {
                try? await DatabaseAdministration.dropDatabase(serverURL: server, name: String(name), logger: logger)
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }

    func remove() async { await drop() }
}

struct ServiceTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
