import AppStoreServer
import Foundation

/// Retention Messaging management as the App Store keeps it: uploads are reviewed (approved after
/// the review delay, or as the control API decides), default messages need approved messages
/// (and approved images), the realtime URL is `https://` and at most 256 characters. Images are in
/// `SimulatorStore+Images.swift`.
extension SimulatorStore {
    /// The limits Apple documents for an uploaded message.
    static let headerLimit = 66
    static let bodyLimit = 144

    /// Why a messaging call is refused (mapped to Apple's error codes by the API routes).
    public enum MessagingError: Error, Equatable {
        case invalidMessage(String)
        case messageExists
        case messageNotFound
        case messageNotApproved
        case defaultMessageNotFound
        case realtimeURLNotFound
        case invalidRealtimeURL
        case invalidLocale
        case performanceTestSandboxOnly
        case notAnOriginalTransactionId
        case performanceTestRunning
        case imageExists
        case imageNotFound
        case imageInUse
        case imageNotApproved
        /// Not a PNG, or a PNG with transparency.
        case invalidImage(String)
        /// An unknown `imageSize`, or a `FULL_SIZE` image that is not 3840 × 160–2160.
        case invalidImageSize(String)
        case maximumImagesReached
        case altTextTooLong
        case tooManyBulletPoints
        case bulletPointTextTooLong
        case aboveImageRequiresAnImage
    }

    func uploadMessage(_ identifier: UUID, _ body: UploadMessageRequestBody) throws(MessagingError) {
        guard messaging.messages[identifier] == nil else { throw .messageExists }
        let header = body.header.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = body.body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !header.isEmpty, body.header.count <= Self.headerLimit else { throw .invalidMessage("header") }
        guard !text.isEmpty, body.body.count <= Self.bodyLimit else { throw .invalidMessage("body") }
        try checkImageFields(of: body)
        messaging.messages[identifier] = .init(body: body, uploadedAt: now)
    }

    func deleteMessage(_ identifier: UUID) throws(MessagingError) {
        guard messaging.messages.removeValue(forKey: identifier) != nil else { throw .messageNotFound }
        messaging.defaults = messaging.defaults.filter { $0.value != identifier }
    }

    func messageList() -> GetMessageListResponse {
        let items = messaging.messages.sorted { $0.key.uuidString < $1.key.uuidString }.map {
            GetMessageListResponse.Item(messageIdentifier: $0.key, messageState: messaging.state(of: $0.value, now: now))
        }
        return GetMessageListResponse(messageIdentifiers: items)
    }

    /// Sets a message's review outcome (the control API): `APPROVED`, `REJECTED` or `PENDING`.
    public func setMessageState(_ identifier: UUID, _ state: ReviewState) throws(MessagingError) {
        guard messaging.messages[identifier] != nil else { throw .messageNotFound }
        messaging.messages[identifier]?.decided = state
    }

    /// How long review of messages and images takes from now on (simulated seconds; 0: approved at
    /// once, as Sandbox).
    public func setMessageReviewDelay(_ seconds: TimeInterval) {
        messaging.reviewDelay = max(0, seconds)
    }

    func configureDefaultMessage(productId: String, locale: String, _ identifier: UUID) throws(MessagingError) {
        guard RetentionLocale.isValid(locale) else { throw .invalidLocale }
        guard let message = messaging.messages[identifier] else { throw .messageNotFound }
        guard messaging.state(of: message, now: now) == .approved else { throw .messageNotApproved }
        guard imagesApproved(message) else { throw .imageNotApproved }
        messaging.defaults[SimulatedMessaging.defaultKey(productId: productId, locale: locale)] = identifier
    }

    func defaultMessage(productId: String, locale: String) throws(MessagingError) -> UUID {
        guard let identifier = messaging.defaults[SimulatedMessaging.defaultKey(productId: productId, locale: locale)] else {
            throw .defaultMessageNotFound
        }
        return identifier
    }

    func deleteDefaultMessage(productId: String, locale: String) throws(MessagingError) {
        guard messaging.defaults.removeValue(forKey: SimulatedMessaging.defaultKey(productId: productId, locale: locale)) != nil else {
            throw .defaultMessageNotFound
        }
    }

    /// `https://` as Apple requires — and, unlike Apple, `http://` to a loopback host, so a
    /// service running locally without TLS can be called.
    func setRealtimeURL(_ url: String) throws(MessagingError) {
        guard url.count <= 256, let parsed = URL(string: url), let host = parsed.host, !host.isEmpty,
              parsed.scheme == "https" || (parsed.scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
        else { throw .invalidRealtimeURL }
        messaging.realtimeURL = url
    }

    /// The configured realtime URL, if any.
    public func realtimeURL() -> String? { messaging.realtimeURL }

    func deleteRealtimeURL() throws(MessagingError) {
        guard messaging.realtimeURL != nil else { throw .realtimeURLNotFound }
        messaging.realtimeURL = nil
    }
}

/// Locales as Apple takes them in paths: `en-US`, `de-DE`, `zh-Hans-CN`.
enum RetentionLocale {
    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

extension SimulatorStore {
    /// Starts a performance test against the realtime URL for `originalTransactionId` (which must
    /// be the original transaction id of a subscription): Sandbox only, one test at a time.
    func startPerformanceTest(originalTransactionId: String) throws(MessagingError) -> (id: String, test: SimulatedPerformanceTest) {
        guard configuration.environment == .sandbox else { throw .performanceTestSandboxOnly }
        guard subscriptions[originalTransactionId] != nil else { throw .notAnOriginalTransactionId }
        guard let target = messaging.realtimeURL else { throw .realtimeURLNotFound }
        if messaging.performanceTests.values.contains(where: { $0.result.result == .pending }) { throw .performanceTestRunning }
        let id = ids.uuid()
        let test = SimulatedPerformanceTest(config: messaging.performanceTestConfig, target: target, originalTransactionId: originalTransactionId)
        messaging.performanceTests[id] = test
        return (id, test)
    }

    func recordPerformanceTestRequest(id: String, milliseconds: Int64?, failure: SendAttemptResult?) {
        guard var test = messaging.performanceTests[id] else { return }
        test.completed += 1
        if let milliseconds { test.responseTimes.append(milliseconds) }
        if let failure { test.failures[failure.rawValue, default: 0] += 1 } else { test.successes += 1 }
        messaging.performanceTests[id] = test
    }

    /// Sets the parameters of the next performance tests (default: 50 requests, 5 at once, 700 ms,
    /// 90 %).
    public func setPerformanceTestConfig(_ config: PerformanceTestConfig) {
        messaging.performanceTestConfig = config
    }

    /// A test's result as Apple reports it.
    public func performanceTestResult(id: String) -> PerformanceTestResultResponse? {
        messaging.performanceTests[id]?.result
    }
}
