import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `messages.yaml`: the Retention Messaging messages the `retention:` rules answer with, each in
/// one or more locales, checked against Apple's limits (header ≤ 66 characters, body ≤ 144), and
/// the default message per product. Text only: Apple's images and bullet points (each bullet
/// point needs an image) are not supported yet.
///
/// ```yaml
/// messages:
///   - id: annual-stay-40off
///     locales:
///       en-US: {header: "Stay for 40% less", body: "Keep every filter for a year at 40% off."}
///       de-DE: {header: "Bleib für 40 % weniger", body: "Alle Filter ein Jahr lang 40 % günstiger."}
/// defaults:
///   com.example.pro.annual: annual-why-stay
/// ```
///
/// Apple knows a message by a UUID (`messageIdentifier`). Verdict derives it from the message's
/// id, locale and text (``Localized/identifier``): a message whose text changes is a new message
/// for Apple, reviewed again, and the old one can be deleted — the file stays the truth.
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
        /// Apple's message identifier for exactly this text.
        public let identifier: UUID
    }

    /// The messages, in file order.
    public let messages: [Message]
    /// The default message id per product id.
    public let defaults: [String: String]
    private let byId: [String: Int]

    /// Messages and defaults as given.
    public init(messages: [Message], defaults: [String: String] = [:]) {
        self.messages = messages
        self.defaults = defaults
        var byId: [String: Int] = [:]
        for (index, message) in messages.enumerated() where byId[message.id] == nil { byId[message.id] = index }
        self.byId = byId
    }

    /// The message called `id`, if declared.
    public func message(_ id: String) -> Message? { byId[id].map { messages[$0] } }

    /// No messages (a bundle without `messages.yaml`).
    public static let empty = RetentionMessages(messages: [])

    /// Apple's limits, in characters.
    public enum Limits {
        public static let header = 66
        public static let body = 144
    }

    /// The UUID Apple knows `id`'s text in `locale` by: SHA-256 over the fields, shaped as an
    /// RFC 9562 version-8 UUID.
    public static func identifier(id: String, locale: String, header: String, body: String) -> UUID {
        let fields = ["verdict-retention-message-1", id, locale, header, body]
        var digest = Array(SHA256.hash(data: Data(fields.joined(separator: "\u{0}").utf8)).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x80
        digest[8] = (digest[8] & 0x3F) | 0x80
        return UUID(uuid: (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                           digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]))
    }

    static func read(_ root: YAMLNode, log: DiagnosticLog) -> RetentionMessages {
        let reader = NodeReader(log: log)
        guard let top = reader.mapping(root, "messages.yaml", keys: ["messages", "defaults"], required: ["messages"]) else {
            return .empty
        }
        var messages: [Message] = []
        for item in top["messages"].flatMap({ reader.list($0, "messages") }) ?? [] {
            guard let map = reader.mapping(item, "a message", keys: ["id", "description", "locales"], required: ["id", "locales"]),
                let idNode = map["id"], let id = reader.text(idNode, "a message id"),
                let localesNode = map["locales"], let entries = reader.namedEntries(localesNode, "locales of message \(id)")
            else { continue }
            if messages.contains(where: { $0.id == id }) {
                log.error("message id '\(id)' is declared twice", at: idNode)
                continue
            }
            if entries.isEmpty { log.error("message \(id) has no locale", at: localesNode) }
            let locales = entries.compactMap { localized($0.value, id: id, locale: $0.name, keyNode: $0.key, reader: reader, log: log) }
            guard locales.count == entries.count, !locales.isEmpty else { continue }
            messages.append(Message(id: id, locales: locales, line: idNode.location.line))
        }
        var defaults: [String: String] = [:]
        if let node = top["defaults"], let entries = reader.namedEntries(node, "defaults") {
            for entry in entries {
                guard let messageId = reader.text(entry.value, "the default message of \(entry.name)") else { continue }
                if !messages.contains(where: { $0.id == messageId }) {
                    let suggestion = DidYouMean.suggestion(for: messageId, among: messages.map(\.id))
                    log.error("unknown message '\(messageId)': messages.yaml does not declare it", at: entry.value, suggestion: suggestion)
                    continue
                }
                defaults[entry.name] = messageId
            }
        }
        return RetentionMessages(messages: messages, defaults: defaults)
    }

    private static func localized(
        _ node: YAMLNode, id: String, locale: String, keyNode: YAMLNode, reader: NodeReader, log: DiagnosticLog
    ) -> Localized? {
        guard isLocale(locale) else {
            log.error("'\(locale)' is not a locale such as en-US or de-DE", at: keyNode)
            return nil
        }
        let what = "message \(id) (\(locale))"
        guard let map = reader.mapping(node, what, keys: ["header", "body"], required: ["header", "body"]),
            let headerNode = map["header"], let header = reader.text(headerNode, "header"),
            let bodyNode = map["body"], let body = reader.text(bodyNode, "body")
        else { return nil }
        var valid = checkLength(header, Limits.header, "header of \(what)", at: headerNode, log: log)
        valid = checkLength(body, Limits.body, "body of \(what)", at: bodyNode, log: log) && valid
        guard valid else { return nil }
        return Localized(
            locale: locale, header: header, body: body, identifier: identifier(id: id, locale: locale, header: header, body: body))
    }

    private static func checkLength(_ text: String, _ limit: Int, _ what: String, at node: YAMLNode, log: DiagnosticLog) -> Bool {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            log.error("the \(what) is empty", at: node)
            return false
        }
        guard text.count <= limit else {
            log.error("the \(what) has \(text.count) characters; Apple allows at most \(limit)", at: node)
            return false
        }
        return true
    }

    /// `en`, `en-US`, `zh-Hans-CN`: letters and digits in parts of 2–8, separated by `-` or `_`.
    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
