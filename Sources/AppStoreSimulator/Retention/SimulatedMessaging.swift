import AppStoreServer
import Foundation

/// The Retention Messaging state of the simulated app: uploaded messages with their review,
/// default messages per product and locale, and the realtime URL.
struct SimulatedMessaging: Sendable {
    struct Message: Sendable {
        var body: UploadMessageRequestBody
        var uploadedAt: Date
        /// A state set through the control API; else review approves after ``reviewDelay``.
        var decided: MessageState?
    }

    var messages: [UUID: Message] = [:]
    var defaults: [String: UUID] = [:]
    var realtimeURL: String?
    var performanceTests: [String: SimulatedPerformanceTest] = [:]
    /// The parameters of the next performance test.
    var performanceTestConfig = SimulatedPerformanceTest.defaultConfig
    /// How long review takes (simulated seconds): Apple approves Sandbox messages automatically.
    var reviewDelay: TimeInterval = 0

    func state(of message: Message, now: Date) -> MessageState {
        message.decided ?? (now.timeIntervalSince(message.uploadedAt) >= reviewDelay ? .approved : .pending)
    }

    static func defaultKey(productId: String, locale: String) -> String { productId + "\u{0}" + locale }
}
