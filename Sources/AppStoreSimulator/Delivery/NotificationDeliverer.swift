import AppStoreServer
import AsyncHTTPClient
import Foundation

/// Delivers notifications the way the App Store does: `POST {"signedPayload": "<JWS>"}` with
/// `Content-Type: application/json` to the configured URL; an answer of 200–206 is success,
/// anything else (including connection failures and timeouts) is retried on the
/// ``DeliveryRetryPolicy`` schedule. Every attempt is recorded in the ``SimulatorStore`` with
/// Apple's `SendAttemptResult`, which Get Notification History and Get Test Notification Status report.
///
/// The deliverer owns an HTTP client: call ``shutdown()`` when done (``SimulatorServer/stop()``
/// does this for the deliverer of a server).
public actor NotificationDeliverer {
    private weak var store: SimulatorStore?
    private let httpClient: HTTPClient
    private let environment: AppStoreEnvironment
    private var url: URL?
    private var policy: DeliveryRetryPolicy
    private var inFlight: [String: Task<Void, Never>] = [:]
    private var isShutDown = false

    /// A deliverer recording into `store`, sending to `url` (nil: nothing is sent until one is set).
    public init(store: SimulatorStore, url: URL? = nil, policy: DeliveryRetryPolicy = DeliveryRetryPolicy()) {
        self.store = store
        self.environment = store.configuration.environment
        self.url = url
        self.policy = policy
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout.connect = .milliseconds(Int64(min(policy.requestTimeout, 5) * 1000))
        // Apple sends no trace context; in a process that traces (`verdict demo`) neither does this.
        configuration.tracing.tracer = nil
        self.httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The URL notifications are POSTed to.
    public var deliveryURL: URL? { url }

    /// The retry policy in force.
    public var retryPolicy: DeliveryRetryPolicy { policy }

    /// Sets (or with nil, clears) the URL future notifications are sent to; retries of earlier
    /// notifications go to the new URL too, as they would at Apple.
    public func setDeliveryURL(_ url: URL?) { self.url = url }

    /// Replaces the retry policy (affects notifications delivered from now on).
    public func setRetryPolicy(_ policy: DeliveryRetryPolicy) { self.policy = policy }

    /// Starts delivering `notification` in the background; returns at once.
    public func deliver(_ notification: SimulatedNotification) {
        guard !isShutDown, url != nil else { return }
        let policy = self.policy
        let retries = policy.retries(in: environment)
        inFlight[notification.notificationUUID] = Task {
            await self.run(notification, policy: policy, retries: retries)
        }
    }

    /// Waits until every delivery started so far has finished all its attempts.
    public func waitUntilIdle() async {
        while let (uuid, task) = inFlight.first {
            await task.value
            if inFlight[uuid] == task { inFlight[uuid] = nil }
        }
    }

    /// Cancels pending retries and shuts the HTTP client down.
    public func shutdown() async {
        isShutDown = true
        for task in inFlight.values { task.cancel() }
        for task in inFlight.values { await task.value }
        inFlight = [:]
        try? await httpClient.shutdown()
    }

    private func run(_ notification: SimulatedNotification, policy: DeliveryRetryPolicy, retries: Bool) async {
        let intervals = retries ? policy.retryIntervals : []
        var attemptDate = store?.now ?? notification.signedDate
        for attemptIndex in 0...intervals.count {
            if attemptIndex > 0 {
                let interval = intervals[attemptIndex - 1]
                do { try await Task.sleep(for: policy.realDelay(forSimulated: interval)) } catch { break }
                attemptDate = attemptDate.addingTimeInterval(interval)
            }
            guard let url, let store, !Task.isCancelled else { break }
            let outcome = await send(notification.signedPayload, to: url, timeout: policy.requestTimeout)
            let isLast = attemptIndex == intervals.count
            let succeeded = outcome.result == .success
            await store.recordSendAttempt(
                NotificationSendAttempt(attemptDate: attemptDate, sendAttemptResult: outcome.result,
                                        httpStatus: outcome.status, url: url.absoluteString),
                notificationUUID: notification.notificationUUID,
                retryPending: !succeeded && !isLast
            )
            if succeeded { break }
        }
        inFlight[notification.notificationUUID] = nil
    }

    /// One POST; classifies the outcome as Apple's `SendAttemptResult`.
    private func send(_ signedPayload: String, to url: URL, timeout: TimeInterval)
        async -> (result: SendAttemptResult, status: Int?)
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "App Store Server Notifications (Verdict simulator)")
        do {
            let body = try JSONEncoder().encode(ResponseBodyV2(signedPayload: signedPayload))
            request.body = .bytes(body)
            let response = try await httpClient.execute(
                request, timeout: .milliseconds(Int64(timeout * 1000)))
            _ = try? await response.body.collect(upTo: 1 << 20)
            let status = Int(response.status.code)
            return ((200...206).contains(status) ? .success : .unsuccessfulHttpResponseCode, status)
        } catch {
            return (Self.classify(error), nil)
        }
    }

    /// Maps a transport error to Apple's `SendAttemptResult`.
    static func classify(_ error: any Error) -> SendAttemptResult {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .writeTimeout, .deadlineExceeded, .connectTimeout, .tlsHandshakeTimeout:
                return .timedOut
            case .remoteConnectionClosed:
                return .prematureClose
            case .redirectCycleDetected, .redirectLimitReached:
                return .circularRedirect
            default:
                return .other
            }
        }
        let description = String(describing: error)
        if description.contains("SSL") || description.contains("TLS") { return .tlsIssue }
        if description.contains("connect") || description.contains("refused") || description.contains("unreachable") {
            return .noResponse
        }
        return .socketIssue
    }
}
