import Foundation

/// A parsed database URL: `sqlite:PATH`, `sqlite::memory:`, or
/// `postgres://user:pass@host:port/db[?sslmode=disable|prefer|require|verify-full]` (also `postgresql://`).
///
/// Parsing errors name the problem but never echo the URL (it may hold a password).
public enum DatabaseURL: Sendable, Equatable {
    /// An SQLite database file (relative paths resolve against the working directory).
    case sqliteFile(path: String)
    /// A private in-memory SQLite database (gone on shutdown; for tests and demos).
    case sqliteMemory
    /// A PostgreSQL server.
    case postgres(PostgresURL)

    /// TLS choice for PostgreSQL, after libpq's `sslmode`.
    public enum TLSMode: String, Sendable, Equatable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, without certificate verification (libpq's default).
        case prefer
        /// TLS required, certificate not verified (libpq's `require`).
        case require
        /// TLS required, certificate and host name verified.
        case verifyFull = "verify-full"
    }

    /// The parts of a PostgreSQL URL. `description` hides the password.
    public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
        public var user: String
        public var password: String?
        public var host: String
        public var port: Int
        public var database: String
        public var tls: TLSMode

        public var description: String {
            "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?sslmode=\(tls.rawValue)"
        }
    }

    /// Parses `string`; throws `StorageError.invalidDatabaseURL`.
    public init(parsing string: String) throws(StorageError) {
        let text = string.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            if path == ":memory:" {
                self = .sqliteMemory
                return
            }
            guard !path.isEmpty else {
                throw StorageError.invalidDatabaseURL(reason: "sqlite URL has no file path (expected sqlite:PATH)")
            }
            self = .sqliteFile(path: path)
            return
        }
        for scheme in ["postgres://", "postgresql://"] where text.hasPrefix(scheme) {
            self = .postgres(try Self.parsePostgres(String(text.dropFirst(scheme.count))))
            return
        }
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" }) {
            throw StorageError.invalidDatabaseURL(
                reason: "unsupported scheme '\(text[..<colon])' (expected sqlite:PATH or postgres://…)")
        }
        throw StorageError.invalidDatabaseURL(reason: "missing scheme (expected sqlite:PATH or postgres://user@host/db)")
    }

    private static func parsePostgres(_ rest: String) throws(StorageError) -> PostgresURL {
        var rest = Substring(rest)
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        // The userinfo may contain '/', so find the path after the last '@'.
        let hostStart = rest.lastIndex(of: "@").map { rest.index(after: $0) } ?? rest.startIndex
        if let slash = rest[hostStart...].firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var user = "postgres"
        var password: String?
        var hostPort = rest
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            hostPort = rest[rest.index(after: at)...]
            let userPart: Substring
            if let colon = userInfo.firstIndex(of: ":") {
                userPart = userInfo[..<colon]
                guard let decoded = String(userInfo[userInfo.index(after: colon)...]).removingPercentEncoding else {
                    throw StorageError.invalidDatabaseURL(reason: "password is not valid percent-encoding")
                }
                password = decoded
            } else {
                userPart = userInfo
            }
            guard let decodedUser = String(userPart).removingPercentEncoding, !decodedUser.isEmpty else {
                throw StorageError.invalidDatabaseURL(reason: "user name is empty or not valid percent-encoding")
            }
            user = decodedUser
        }
        var host = ""
        var port = 5432
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else {
                throw StorageError.invalidDatabaseURL(reason: "IPv6 host is missing ']'")
            }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw StorageError.invalidDatabaseURL(reason: "unexpected text after IPv6 host") }
                port = try parsePort(after.dropFirst())
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            port = try parsePort(hostPort[hostPort.index(after: colon)...])
        } else {
            host = String(hostPort)
        }
        guard !host.isEmpty else { throw StorageError.invalidDatabaseURL(reason: "host is missing") }
        guard let database = String(path).removingPercentEncoding, !database.contains("/") else {
            throw StorageError.invalidDatabaseURL(reason: "database name is not valid")
        }
        var tls = TLSMode.prefer
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let key = parts[0], value = parts.count > 1 ? parts[1] : ""
            switch key {
            case "sslmode":
                switch value {
                case "disable": tls = .disable
                case "allow", "prefer": tls = .prefer
                case "require", "verify-ca": tls = .require
                case "verify-full": tls = .verifyFull
                default:
                    throw StorageError.invalidDatabaseURL(
                        reason: "sslmode '\(value)' is not one of disable, prefer, require, verify-full")
                }
            default:
                throw StorageError.invalidDatabaseURL(reason: "unsupported query parameter '\(key)' (only sslmode)")
            }
        }
        return PostgresURL(user: user, password: password, host: host, port: port,
                           database: database.isEmpty ? user : database, tls: tls)
    }

    private static func parsePort(_ text: Substring) throws(StorageError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw StorageError.invalidDatabaseURL(reason: "port must be a number from 1 to 65535")
        }
        return port
    }
}
