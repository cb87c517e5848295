/// One replay asked for through the API: the candidate's files and the replay's settings, where
/// it stands, its progress, and its report (JSON) once done.
public struct RuleReplayRecord: Sendable, Equatable {
    /// Where a replay stands.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Waiting for a worker (one replay runs at a time per instance).
        case queued
        case running
        /// The report is ready.
        case done
        /// The replay stopped on an error (`error` says which).
        case failed
        /// Cancelled before it finished.
        case cancelled

        /// Whether the replay has ended (done, failed or cancelled).
        public var isFinished: Bool { self == .done || self == .failed || self == .cancelled }
    }

    /// A UUID (lowercase).
    public var id: String
    public var state: State
    /// `sha256:…` of the candidate bundle.
    public var candidateHash: String
    /// The request as JSON: the candidate's files and the replay's settings (the job's input).
    public var request: String
    public var createdAt: Int64
    public var startedAt: Int64?
    public var finishedAt: Int64?
    /// Decisions replayed so far, and the number the replay will replay.
    public var progressDone: Int
    public var progressTotal: Int
    /// The JSON report, once done.
    public var report: String?
    /// Why it failed.
    public var error: String?

    public init(id: String, state: State, candidateHash: String, request: String, createdAt: Int64,
                startedAt: Int64? = nil, finishedAt: Int64? = nil, progressDone: Int = 0, progressTotal: Int = 0,
                report: String? = nil, error: String? = nil) {
        self.id = id
        self.state = state
        self.candidateHash = candidateHash
        self.request = request
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.progressDone = progressDone
        self.progressTotal = progressTotal
        self.report = report
        self.error = error
    }
}
