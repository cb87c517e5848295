import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// `verdict appstore messages sync|status`: brings Apple's retention messages in line with
/// `messages.yaml` and records their review states, which the realtime path reads.
///
/// Sync uploads every image and text Apple does not have (a changed text or image has a new
/// identifier, so it is a new message), deletes the messages and images Verdict uploaded earlier
/// that the bundle no longer has, sets each product's default message per locale once Apple
/// approved it and its images, and reads the states. Status only reads the states. Messages and
/// images Verdict never uploaded are left alone. Images are read from the bundle folder.
public struct RetentionMessageSync: Sendable {
    /// One text of the bundle and what happened to it.
    public struct Row: Sendable, Equatable {
        public var messageId: String
        public var locale: String
        public var messageIdentifier: UUID
        public var state: String
        /// `uploaded`, `unchanged`, `deleted` or `missing` (status: Apple does not have it).
        public var action: String
    }

    /// A product's default message in one locale.
    public struct DefaultRow: Sendable, Equatable {
        public var productId: String
        public var locale: String
        public var messageId: String
        /// `set`, or `waiting` until Apple approves the message.
        public var action: String
    }

    /// What a run did.
    public struct Report: Sendable {
        public var messages: [Row] = []
        public var defaults: [DefaultRow] = []

        /// A table for people.
        public func render() -> String {
            var lines = messages.map {
                "\($0.messageId) (\($0.locale))  \($0.messageIdentifier.uuidString.lowercased())  \($0.state)  \($0.action)"
            }
            lines += defaults.map { "default \($0.productId) (\($0.locale)) → \($0.messageId): \($0.action)" }
            return lines.isEmpty ? "messages.yaml declares no message" : lines.joined(separator: "\n")
        }
    }

    let client: AppStoreServerAPIClient
    let repository: any RetentionMessageStore
    let messages: RetentionMessages
    /// The bundle folder the image files are read from (needed only to upload images).
    let imagesDirectory: String?
    let now: @Sendable () -> Date

    public init(client: AppStoreServerAPIClient, repository: any RetentionMessageStore, messages: RetentionMessages,
                imagesDirectory: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.repository = repository
        self.messages = messages
        self.imagesDirectory = imagesDirectory
        self.now = now
    }

    /// Syncs (or, with `upload: false`, only reads the states) and records them.
    public func run(upload: Bool) async throws -> Report {
        let texts = messages.messages.flatMap { message in message.locales.map { (id: message.id, text: $0) } }
        let wanted = Set(texts.map(\.text.identifier))
        var images = try await imageStates()
        var apple = try await states()
        var report = Report()
        var actions: [UUID: String] = [:]
        var uploadedImages: Set<UUID> = []
        if upload {
            uploadedImages = try await uploadImages(missingFrom: images)
            for (_, text) in texts where apple[text.identifier] == nil {
                // 409: uploaded meanwhile (another sync); the list below shows its state.
                try await Self.ignoring(409) { () async throws(AppStoreAPIFailure) in
                    try await client.uploadMessage(messageIdentifier: text.identifier, Self.uploadBody(text))
                }
                actions[text.identifier] = "uploaded"
            }
            let recorded = try await repository.retentionMessageStates()
            var forgotten: [String] = []
            for state in recorded where state.kind == .message {
                guard let identifier = UUID(uuidString: state.messageIdentifier), !wanted.contains(identifier) else { continue }
                if apple[identifier] != nil {
                    try await Self.ignoring(404) { () async throws(AppStoreAPIFailure) in try await client.deleteMessage(messageIdentifier: identifier) }
                }
                forgotten.append(state.messageIdentifier)
                report.messages.append(Row(
                    messageId: state.messageId, locale: state.locale, messageIdentifier: identifier, state: "-", action: "deleted"))
            }
            try await repository.deleteRetentionMessageStates(messageIdentifiers: forgotten)
            report.messages += try await deleteRemovedImages(recorded: recorded, apple: images)
            apple = try await states()
            images = try await imageStates()
        }
        let checkedAt = now().appStoreMilliseconds
        var recorded: [RetentionMessageState] = []
        for (id, text) in texts {
            let state = apple[text.identifier]?.rawValue ?? (upload ? ReviewState.pending.rawValue : "MISSING")
            let action = actions[text.identifier] ?? (apple[text.identifier] == nil ? "missing" : "unchanged")
            report.messages.append(Row(messageId: id, locale: text.locale, messageIdentifier: text.identifier, state: state, action: action))
            if apple[text.identifier] != nil || upload {
                recorded.append(RetentionMessageState(
                    messageIdentifier: text.identifier.uuidString.lowercased(), messageId: id, locale: text.locale, state: state,
                    checkedAt: checkedAt))
            }
        }
        let imageReport = imageRows(images, uploaded: uploadedImages, upload: upload, checkedAt: checkedAt)
        report.messages += imageReport.rows
        try await repository.recordRetentionMessageStates(recorded + imageReport.states)
        if upload { report.defaults = try await configureDefaults(apple, images: images) }
        return report
    }

    /// Sets each product's default message in every locale of the message Apple approved (with
    /// each of its images).
    private func configureDefaults(_ apple: [UUID: ReviewState], images: [UUID: ReviewState]) async throws -> [DefaultRow] {
        var rows: [DefaultRow] = []
        for (productId, messageId) in messages.defaults.sorted(by: { $0.key < $1.key }) {
            for text in messages.message(messageId)?.locales ?? [] {
                var row = DefaultRow(productId: productId, locale: text.locale, messageId: messageId, action: "waiting")
                if apple[text.identifier] == .approved, text.imageIdentifiers.allSatisfy({ images[$0] == .approved }) {
                    try await client.configureDefaultMessage(
                        productId: productId, locale: text.locale, DefaultConfigurationRequest(messageIdentifier: text.identifier))
                    row.action = "set"
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// Runs `call`, taking an answer with HTTP `status` as success.
    static func ignoring(_ status: Int, _ call: () async throws(AppStoreAPIFailure) -> Void) async throws(AppStoreAPIFailure) {
        do {
            try await call()
        } catch {
            guard error.httpStatus == status else { throw error }
        }
    }

    /// Apple's messages by identifier, with their review states.
    private func states() async throws -> [UUID: ReviewState] {
        var states: [UUID: ReviewState] = [:]
        for item in try await client.getMessageList().messageIdentifiers ?? [] {
            if let identifier = item.messageIdentifier { states[identifier] = item.messageState ?? .pending }
        }
        return states
    }
}
