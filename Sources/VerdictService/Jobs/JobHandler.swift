import Foundation
import Logging
import VerdictStorage

/// Runs one kind of job. Handlers must be idempotent: a job whose worker crashed runs again.
public protocol JobHandler: Sendable {
    /// The job kind this handler runs.
    var kind: String { get }
    /// Runs the job; the returned text (JSON) is stored as the result. Throw ``JobFailure`` to
    /// control retries; any other error is retried with backoff until the job's attempts run out.
    func run(_ job: JobRecord, logger: Logger) async throws -> String?
}

/// How a job attempt failed, when the handler knows better than "retry with backoff".
public enum JobFailure: Error, Sendable {
    /// Retrying cannot help: the job is dead now.
    case permanent(String)
    /// Retry no earlier than `at` (UNIX ms), e.g. Apple's `Retry-After`; does not count as a
    /// backoff step but does use an attempt.
    case retry(at: Int64, String)
    /// The job cannot run yet (e.g. no API credentials, or a decision waiting for the customer's
    /// history): retry after `delay` ms without giving up; the attempt is given back.
    case waiting(delayMilliseconds: Int64, String)
}
