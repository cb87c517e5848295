/// State of a queued job.
public enum JobState: String, Sendable, Codable, CaseIterable {
    case queued
    case running
    case done
    /// Gave up after its last attempt; visible in metrics and the API.
    case dead
}

/// A job to enqueue.
public struct NewJob: Sendable, Equatable {
    /// What the job does, e.g. `process-notification`; workers dispatch on it.
    public var kind: String
    /// Job input as JSON text.
    public var payload: String
    /// The notification this job processes, if any (its completion marks the notification).
    public var notificationUUID: String?
    /// At most one non-dead job per key and app (e.g. one consumption submission per transaction).
    public var dedupeKey: String?
    public var runAt: Int64
    /// Jobs with a deadline run first, earliest deadline first.
    public var deadline: Int64?
    public var maxAttempts: Int
    public var createdAt: Int64
    /// The W3C `traceparent` of the work that enqueued the job (a trace exported by the service),
    /// so each attempt's span joins that trace on whichever instance runs it; nil when not traced.
    public var traceParent: String?

    public init(kind: String, payload: String, notificationUUID: String? = nil, dedupeKey: String? = nil,
                runAt: Int64, deadline: Int64? = nil, maxAttempts: Int = 10, createdAt: Int64, traceParent: String? = nil) {
        self.traceParent = traceParent
        self.kind = kind
        self.payload = payload
        self.notificationUUID = notificationUUID
        self.dedupeKey = dedupeKey
        self.runAt = runAt
        self.deadline = deadline
        self.maxAttempts = maxAttempts
        self.createdAt = createdAt
    }
}

/// A stored job.
public struct JobRecord: Sendable, Equatable {
    public var id: Int64
    /// The app (bundle id) whose job it is: the repository's app when it was enqueued. The queue is
    /// shared by every app, so a worker runs the job with this app's handlers.
    public var app: String
    public var job: NewJob
    public var state: JobState
    public var attempts: Int
    public var leaseOwner: String?
    public var leaseUntil: Int64?
    public var lastError: String?
    public var updatedAt: Int64

    public init(id: Int64, app: String, job: NewJob, state: JobState, attempts: Int, leaseOwner: String?,
                leaseUntil: Int64?, lastError: String?, updatedAt: Int64) {
        self.id = id
        self.app = app
        self.job = job
        self.state = state
        self.attempts = attempts
        self.leaseOwner = leaseOwner
        self.leaseUntil = leaseUntil
        self.lastError = lastError
        self.updatedAt = updatedAt
    }
}

/// The outcome of `enqueue`.
public struct JobEnqueueResult: Sendable, Equatable {
    public var id: Int64
    /// False when a job of the same app with the same dedupe key already existed.
    public var created: Bool
    /// The `traceparent` of the job that exists (``created`` false): the trace the shared work
    /// belongs to, which the caller can link to.
    public var traceParent: String?

    public init(id: Int64, created: Bool, traceParent: String? = nil) {
        self.id = id
        self.created = created
        self.traceParent = traceParent
    }
}

/// Queue depth and age, per kind.
public struct QueueStatistics: Sendable, Equatable {
    public struct Kind: Sendable, Equatable {
        public var kind: String
        public var queued: Int
        public var running: Int
        public var dead: Int
        /// Age in ms of the oldest runnable queued job (`now - runAt`), 0 when none.
        public var oldestQueuedAge: Int64

        public init(kind: String, queued: Int, running: Int, dead: Int, oldestQueuedAge: Int64) {
            self.kind = kind
            self.queued = queued
            self.running = running
            self.dead = dead
            self.oldestQueuedAge = oldestQueuedAge
        }
    }
    public var kinds: [Kind]

    public init(kinds: [Kind]) { self.kinds = kinds }

    public var queued: Int { kinds.reduce(0) { $0 + $1.queued } }
    public var dead: Int { kinds.reduce(0) { $0 + $1.dead } }
}
