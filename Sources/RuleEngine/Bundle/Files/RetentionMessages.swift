import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `messages.yaml`: the Retention Messaging messages the `retention:` rules answer with, each in
/// one or more locales, checked against Apple's limits (header ≤ 66 characters, body ≤ 144, alt
/// texts ≤ 150, at most 5 bullet points of ≤ 66), the PNG images they show, and the default
/// message per product.
///
/// ```yaml
/// images:
///   - {id: filters-banner, file: images/filters-banner.png, size: FULL_SIZE, sha256: 9f2c…}
///   - {id: cloud-icon, file: images/cloud-icon.png, size: BULLET_POINT, sha256: 41d0…}
/// messages:
///   - id: annual-stay-40off
///     locales:
///       en-US: {header: "Stay for 40% less", body: "Keep every filter for a year at 40% off."}
///       de-DE: {header: "Bleib für 40 % weniger", body: "Alle Filter ein Jahr lang 40 % günstiger."}
///   - id: what-you-lose
///     locales:
///       en-US:
///         header: Before you go
///         body: Pro keeps all of this for you.
///         image: {id: filters-banner, altText: Every premium filter side by side}
///         bulletPoints:
///           - {text: Your cloud library, image: {id: cloud-icon, altText: A cloud}}
/// defaults:
///   com.example.pro.annual: what-you-lose
/// ```
///
/// Apple knows a message by a UUID (`messageIdentifier`). Verdict derives it from the message's
/// id, locale and content (``Localized/identifier``): a message whose text or image changes is a
/// new message for Apple, reviewed again, and the old one can be deleted — the file stays the
/// truth. An image is known by its size and the SHA-256 of its file (``Image/identifier``), which
/// `messages.yaml` records: the bundle stays text, and the files are checked against it where
/// they are read (``RetentionImageFiles``).
public struct RetentionMessages: Hashable, Sendable {
    /// One message of the file, in all its locales.
    public struct Message: Hashable, Sendable {
        /// The id rules name (`answer.message`).
        public let id: String
        /// The texts, in file order.
        public let locales: [Localized]
        /// Where it is declared.
        public let line: Int

        /// The text for `locale`: the exact locale (case-insensitive, `_` read as `-`), else the
        /// first of the same language; nil when the message has neither.
        public func localized(for locale: String) -> Localized? {
            let wanted = locale.replacingOccurrences(of: "_", with: "-").lowercased()
            if let exact = locales.first(where: { $0.locale.lowercased() == wanted }) { return exact }
            let language = wanted.split(separator: "-").first.map(String.init) ?? wanted
            return locales.first { $0.locale.lowercased().split(separator: "-").first.map(String.init) == language }
        }
    }

    /// A message's text in one locale, as uploaded to Apple.
    public struct Localized: Hashable, Sendable {
        /// The locale it is written for (`en-US`).
        public let locale: String
        public let header: String
        public let body: String
        /// A full-size image above the body.
        public let image: ImageReference?
        /// `ABOVE_BODY` or `ABOVE_IMAGE` (with an image); nil: Apple's default.
        public let headerPosition: String?
        public let bulletPoints: [BulletPoint]
        /// Apple's message identifier for exactly this content.
        public let identifier: UUID

        /// A text-only message: the only kind Apple shows with an offer or an alternate product.
        public var isTextOnly: Bool { image == nil && bulletPoints.isEmpty }
        /// The images the message shows (each must be approved by Apple too).
        public var imageIdentifiers: [UUID] { ([image] + bulletPoints.map(\.image)).compactMap { $0?.identifier } }
    }

    /// An image of `images:` as a message uses it, with its alternative text.
    public struct ImageReference: Hashable, Sendable {
        /// The image's id in `images:`.
        public let id: String
        public let identifier: UUID
        public let altText: String

        public init(id: String, identifier: UUID, altText: String) {
            self.id = id
            self.identifier = identifier
            self.altText = altText
        }
    }

    /// One bullet point: its text and its icon (a `BULLET_POINT` image).
    public struct BulletPoint: Hashable, Sendable {
        public let text: String
        public let image: ImageReference

        public init(text: String, image: ImageReference) {
            self.text = text
            self.image = image
        }
    }

    /// A PNG file of the bundle folder, declared in `images:`.
    public struct Image: Hashable, Sendable {
        public let id: String
        /// The path relative to the bundle folder (`images/banner.png`).
        public let file: String
        /// `FULL_SIZE` (above a message's body) or `BULLET_POINT` (a bullet's icon).
        public let size: String
        /// The lowercase hex SHA-256 of the file, as `messages.yaml` records it.
        public let sha256: String
        /// Apple's image identifier: the size and the file's SHA-256, as a version-8 UUID.
        public let identifier: UUID
        /// Where it is declared.
        public let line: Int
    }

    /// The messages, in file order.
    public let messages: [Message]
    /// The default message id per product id.
    public let defaults: [String: String]
    /// The images, in file order.
    public let images: [Image]
    private let byId: [String: Int]

    /// Messages, defaults and images as given.
    public init(messages: [Message], defaults: [String: String] = [:], images: [Image] = []) {
        self.messages = messages
        self.defaults = defaults
        self.images = images
        var byId: [String: Int] = [:]
        for (index, message) in messages.enumerated() where byId[message.id] == nil { byId[message.id] = index }
        self.byId = byId
    }

    /// The message called `id`, if declared.
    public func message(_ id: String) -> Message? { byId[id].map { messages[$0] } }

    /// The image called `id`, if declared.
    public func image(_ id: String) -> Image? { images.first { $0.id == id } }

    /// No messages (a bundle without `messages.yaml`).
    public static let empty = RetentionMessages(messages: [])

    /// Apple's limits, in characters (and bullet points).
    public enum Limits {
        public static let header = 66
        public static let body = 144
        public static let altText = 150
        public static let bulletText = 66
        public static let bulletPoints = 5
    }

    /// The UUID Apple knows `id`'s text in `locale` by: SHA-256 over the fields, shaped as an
    /// RFC 9562 version-8 UUID. A message with an image, a header position or bullet points adds
    /// them after the text (a text-only message keeps the identifier it always had).
    public static func identifier(id: String, locale: String, header: String, body: String, image: ImageReference? = nil,
                                  headerPosition: String? = nil, bulletPoints: [BulletPoint] = []) -> UUID {
        var fields = ["verdict-retention-message-1", id, locale, header, body]
        if let image { fields += ["image", image.identifier.uuidString.lowercased(), image.altText] }
        if let headerPosition { fields += ["headerPosition", headerPosition] }
        for bullet in bulletPoints { fields += ["bullet", bullet.text, bullet.image.identifier.uuidString.lowercased(), bullet.image.altText] }
        return uuid(fields)
    }

    /// The UUID Apple knows an image of `size` whose file has SHA-256 `sha256` (lowercase hex) by.
    public static func imageIdentifier(size: String, sha256: String) -> UUID {
        uuid(["verdict-retention-image-1", size, sha256])
    }

    /// SHA-256 over the NUL-joined fields, shaped as an RFC 9562 version-8 UUID.
    private static func uuid(_ fields: [String]) -> UUID {
        var digest = Array(SHA256.hash(data: Data(fields.joined(separator: "\u{0}").utf8)).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x80
        digest[8] = (digest[8] & 0x3F) | 0x80
        return UUID(uuid: (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                           digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]))
    }
}
