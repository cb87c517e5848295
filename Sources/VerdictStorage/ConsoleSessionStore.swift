/// The console's sign-in sessions. Part of ``VerdictRepository``: every method is one statement;
/// times are UNIX milliseconds. Only a SHA-256 digest of each session id is stored, so the table
/// never holds what a browser presents.
///
/// Process-wide, not per app: a session is a sign-in to the service's one console (opened with
/// one of the service's API tokens), so it is found whichever app's repository looks it up. It
/// keeps the apps its token acts for (``ConsoleSessionRecord/apps``); the console shows only those.
public protocol ConsoleSessionStore: Sendable {
    /// Stores a new session (and removes the expired ones).
    func createConsoleSession(_ session: ConsoleSessionRecord) async throws
    /// The unexpired session whose id has digest `idDigest` at `now`.
    func consoleSession(idDigest: String, now: Int64) async throws -> ConsoleSessionRecord?
    /// Ends a session (sign out). True when it existed.
    @discardableResult
    func deleteConsoleSession(idDigest: String) async throws -> Bool
}
