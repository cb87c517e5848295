import Foundation
import Logging

/// Creating and dropping whole PostgreSQL databases on a server: for test suites that need a
/// fresh database per test and for operators preparing an installation. SQLite needs none of
/// this (a new file is a new database).
public enum DatabaseAdministration {
    /// Creates the empty database `name` on the server `serverURL` points at (its user must be
    /// allowed to create databases) and returns the URL of the new database.
    ///
    /// - Parameter name: lower-case letters, digits and underscores only (it is not quoted).
    public static func createDatabase(serverURL: String, name: String, logger: Logger) async throws -> String {
        var server = try postgresURL(serverURL, name: name)
        try await withAdministrator(server, logger: logger) { try await $0.executeOutsideTransaction("CREATE DATABASE \(name)") }
        server.database = name
        return urlString(server)
    }

    /// Drops the database `name` on the server `serverURL` points at, closing its connections.
    public static func dropDatabase(serverURL: String, name: String, logger: Logger) async throws {
        let server = try postgresURL(serverURL, name: name)
        try await withAdministrator(server, logger: logger) {
            try await $0.executeOutsideTransaction("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    /// The URL string of `url` (credentials percent-encoded).
    public static func urlString(_ url: DatabaseURL.PostgresURL) -> String {
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
        let password = url.password.map { ":" + encode($0) } ?? ""
        return "postgres://\(encode(url.user))\(password)@\(url.host):\(url.port)/\(url.database)?sslmode=\(url.tls.rawValue)"
    }

    private static func postgresURL(_ serverURL: String, name: String) throws -> DatabaseURL.PostgresURL {
        guard !name.isEmpty, name.count <= 63,
              name.allSatisfy({ ($0.isLowercase && $0.isASCII) || $0.isNumber || $0 == "_" }) else {
            throw StorageError.invalidDatabaseURL(reason: "database names may hold only a-z, 0-9 and _ (at most 63)")
        }
        guard case .postgres(let server) = try DatabaseURL(parsing: serverURL) else {
            throw StorageError.invalidDatabaseURL(reason: "database administration needs a postgres:// URL")
        }
        return server
    }

    private static func withAdministrator(
        _ server: DatabaseURL.PostgresURL, logger: Logger, _ body: (PostgresDriver) async throws -> Void
    ) async throws {
        let driver = try await PostgresDriver.open(url: server, maximumConnections: 1, connectTimeout: .seconds(10), logger: logger)
        do {
            try await body(driver)
        } catch {
            try? await driver.shutdown()
            throw error
        }
        try await driver.shutdown()
    }
}
