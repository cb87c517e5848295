import AppStoreServer
import Foundation

/// The Retention Messaging state of the simulated app: uploaded messages and images with their
/// review, default messages per product and locale, and the realtime URL.
struct SimulatedMessaging: Sendable {
    struct Message: Sendable {
        var body: UploadMessageRequestBody
        var uploadedAt: Date
        /// A state set through the control API; else review approves after ``reviewDelay``.
        var decided: ReviewState?
    }

    /// An uploaded image: what was read of its PNG (the bytes are not kept) and its review.
    struct Image: Sendable {
        var size: ImageSize
        var width: Int
        var height: Int
        var uploadedAt: Date
        /// A state set through the control API; else review approves after ``reviewDelay``.
        var decided: ReviewState?
    }

    var messages: [UUID: Message] = [:]
    var images: [UUID: Image] = [:]
    var defaults: [String: UUID] = [:]
    var realtimeURL: String?
    var performanceTests: [String: SimulatedPerformanceTest] = [:]
    /// The parameters of the next performance test.
    var performanceTestConfig = SimulatedPerformanceTest.defaultConfig
    /// How long review takes (simulated seconds), for messages and images alike: Apple approves
    /// Sandbox uploads automatically.
    var reviewDelay: TimeInterval = 0

    func state(of message: Message, now: Date) -> ReviewState {
        message.decided ?? (reviewed(uploadedAt: message.uploadedAt, now: now) ? .approved : .pending)
    }

    func state(of image: Image, now: Date) -> ReviewState {
        image.decided ?? (reviewed(uploadedAt: image.uploadedAt, now: now) ? .approved : .pending)
    }

    private func reviewed(uploadedAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(uploadedAt) >= reviewDelay
    }

    static func defaultKey(productId: String, locale: String) -> String { productId + "\u{0}" + locale }
}
