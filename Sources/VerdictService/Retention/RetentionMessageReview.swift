import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// Where each text and image of the active `messages.yaml` stands at Apple, from the review
/// states `verdict appstore messages sync|status` recorded — and a warning for each one Apple has
/// not approved, since a rule answering with it is skipped until it is. `GET /v1/rules` and the
/// console's Rules page show them.
struct RetentionMessageReview: Sendable, Equatable {
    /// One text (or image) of the bundle and its last recorded state.
    struct Item: Encodable, Sendable, Equatable {
        /// `message` or `image`.
        var kind: String
        /// The message id (or image id).
        var id: String
        /// The locale of the text (or the image's size).
        var locale: String
        /// Apple's identifier (lowercase UUID).
        var identifier: String
        /// Apple's review state as last read; nil when no sync recorded it.
        var review: ReviewState?

        /// What `state` says when no sync recorded the text or image.
        static let notUploaded = "NOT_UPLOADED"

        /// `PENDING`, `APPROVED`, `REJECTED` (or a newer state, as Apple sent it); ``notUploaded``
        /// when no sync recorded it.
        var state: String { review?.rawValue ?? Self.notUploaded }

        private enum CodingKeys: String, CodingKey { case kind, id, locale, identifier, state }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(id, forKey: .id)
            try container.encode(locale, forKey: .locale)
            try container.encode(identifier, forKey: .identifier)
            try container.encode(state, forKey: .state)
        }
    }

    var items: [Item]
    var warnings: [String]

    init(messages: RetentionMessages, states: [RetentionMessageState]) {
        let recorded = Dictionary(states.map { ($0.messageIdentifier.lowercased(), $0.review) }, uniquingKeysWith: { first, _ in first })
        func state(_ identifier: UUID) -> ReviewState? { recorded[identifier.uuidString.lowercased()] }
        items = messages.messages.flatMap { message in
            message.locales.map {
                Item(kind: "message", id: message.id, locale: $0.locale, identifier: $0.identifier.uuidString.lowercased(),
                     review: state($0.identifier))
            }
        } + messages.images.map {
            Item(kind: "image", id: $0.id, locale: $0.size, identifier: $0.identifier.uuidString.lowercased(), review: state($0.identifier))
        }
        warnings = items.filter { $0.review != .approved }.map { item in
            let what = item.kind == "message" ? "message \(item.id) (\(item.locale))" : "image \(item.id)"
            let shown = item.kind == "message" ? "rules answering with it are skipped" : "messages showing it are skipped"
            return item.review == nil
                ? "\(what) is not uploaded to Apple: \(shown) (run `verdict appstore messages sync`)"
                : "\(what) is \(item.state) at Apple: \(shown) until Apple approves it"
        }
    }
}
