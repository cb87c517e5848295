/// Errors thrown by `VerdictRepository` implementations and `RepositoryFactory`.
///
/// Every `description` is safe to log and to show to operators: it never contains the
/// database password nor the values bound to a query.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database URL could not be understood; the reason names the problem (never the password).
    case invalidDatabaseURL(reason: String)
    /// The database cannot be reached right now (connection refused or closed, server shutting
    /// down, busy beyond the timeout, repository shut down). Callers should answer 503 and retry.
    case unavailable(reason: String)
    /// The database refused a statement (constraint, syntax, type, …).
    case queryFailed(reason: String)
    /// A row did not have the expected shape (missing column, wrong type, unknown enum value).
    case corruptRow(reason: String)
    /// Applying migrations failed, or the database is newer than this build.
    case migrationFailed(reason: String)

    /// True for `.unavailable`: the operation may succeed later without any change on our side.
    public var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .invalidDatabaseURL(let reason): return "invalid database URL: \(reason)"
        case .unavailable(let reason): return "database unavailable: \(reason)"
        case .queryFailed(let reason): return "database query failed: \(reason)"
        case .corruptRow(let reason): return "unexpected database row: \(reason)"
        case .migrationFailed(let reason): return "database migration failed: \(reason)"
        }
    }

    /// The same error with every occurrence of each secret replaced by `***`.
    func redacting(_ secrets: [String]) -> StorageError {
        func scrub(_ text: String) -> String {
            var text = text
            for secret in secrets where !secret.isEmpty {
                text = text.replacingOccurrences(of: secret, with: "***")
            }
            return text
        }
        switch self {
        case .invalidDatabaseURL(let reason): return .invalidDatabaseURL(reason: scrub(reason))
        case .unavailable(let reason): return .unavailable(reason: scrub(reason))
        case .queryFailed(let reason): return .queryFailed(reason: scrub(reason))
        case .corruptRow(let reason): return .corruptRow(reason: scrub(reason))
        case .migrationFailed(let reason): return .migrationFailed(reason: scrub(reason))
        }
    }
}
