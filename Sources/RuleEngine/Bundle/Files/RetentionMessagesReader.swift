#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads `messages.yaml` (see ``RetentionMessages``), refusing what Apple would refuse: texts over
/// its limits, more than 5 bullet points, a header above an image the message does not have, an
/// image of the wrong size for its place, and images or messages declared twice.
extension RetentionMessages {
    /// The image sizes of Apple's Upload Image.
    static let imageSizes = ["FULL_SIZE", "BULLET_POINT"]
    /// Apple's `headerPosition` values.
    static let headerPositions = ["ABOVE_BODY", "ABOVE_IMAGE"]

    static func read(_ root: YAMLNode, log: DiagnosticLog) -> RetentionMessages {
        let reader = NodeReader(log: log)
        guard let top = reader.mapping(root, "messages.yaml", keys: ["images", "messages", "defaults"], required: ["messages"]) else {
            return .empty
        }
        let images = top["images"].map { readImages($0, reader: reader, log: log) } ?? []
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
            let context = LocalizedContext(id: id, images: images, reader: reader, log: log)
            let locales = entries.compactMap { context.localized($0.value, locale: $0.name, keyNode: $0.key) }
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
        return RetentionMessages(messages: messages, defaults: defaults, images: images)
    }

    private static func readImages(_ node: YAMLNode, reader: NodeReader, log: DiagnosticLog) -> [Image] {
        var images: [Image] = []
        for item in reader.list(node, "images") ?? [] {
            guard let map = reader.mapping(item, "an image", keys: ["id", "file", "size", "sha256", "description"],
                                           required: ["id", "file", "size", "sha256"]),
                let idNode = map["id"], let id = reader.text(idNode, "an image id"),
                let fileNode = map["file"], let file = reader.text(fileNode, "the file of image \(id)"),
                let sizeNode = map["size"], let size = reader.choice(sizeNode, "the size of image \(id)", among: imageSizes),
                let digestNode = map["sha256"], let digest = reader.text(digestNode, "the sha256 of image \(id)")
            else { continue }
            if images.contains(where: { $0.id == id }) {
                log.error("image id '\(id)' is declared twice", at: idNode)
                continue
            }
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            guard !file.hasPrefix("/"), !parts.contains(".."), !parts.contains(""), file.lowercased().hasSuffix(".png") else {
                log.error("the file of image \(id) must be a .png path inside the bundle folder, such as images/banner.png", at: fileNode)
                continue
            }
            guard digest.count == 64, digest.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                log.error("the sha256 of image \(id) must be 64 lowercase hex digits (`sha256sum \(file)` prints it)", at: digestNode)
                continue
            }
            images.append(Image(id: id, file: file, size: size, sha256: digest,
                                identifier: imageIdentifier(size: size, sha256: digest), line: idNode.location.line))
        }
        return images
    }

    /// Reads one locale of one message.
    private struct LocalizedContext {
        let id: String
        let images: [Image]
        let reader: NodeReader
        let log: DiagnosticLog

        func localized(_ node: YAMLNode, locale: String, keyNode: YAMLNode) -> Localized? {
            guard isLocale(locale) else {
                log.error("'\(locale)' is not a locale such as en-US or de-DE", at: keyNode)
                return nil
            }
            let what = "message \(id) (\(locale))"
            guard let map = reader.mapping(node, what, keys: ["header", "body", "image", "headerPosition", "bulletPoints"],
                                           required: ["header", "body"]),
                let headerNode = map["header"], let header = reader.text(headerNode, "header"),
                let bodyNode = map["body"], let body = reader.text(bodyNode, "body")
            else { return nil }
            var valid = checkLength(header, Limits.header, "header of \(what)", at: headerNode)
            valid = checkLength(body, Limits.body, "body of \(what)", at: bodyNode) && valid
            var image: ImageReference?
            if let imageNode = map["image"] {
                image = reference(imageNode, size: "FULL_SIZE", what: "the image of \(what)")
                valid = image != nil && valid
            }
            var headerPosition: String?
            if let positionNode = map["headerPosition"] {
                headerPosition = reader.choice(positionNode, "the headerPosition of \(what)", among: headerPositions)
                valid = headerPosition != nil && valid
                if headerPosition == "ABOVE_IMAGE", map["image"] == nil {
                    log.error("the header of \(what) cannot be ABOVE_IMAGE: the message has no image", at: positionNode)
                    valid = false
                }
            }
            var bulletPoints: [BulletPoint] = []
            if let listNode = map["bulletPoints"], let items = reader.list(listNode, "the bullet points of \(what)") {
                if items.count > Limits.bulletPoints {
                    log.error("\(what) has \(items.count) bullet points; Apple allows at most \(Limits.bulletPoints)", at: listNode)
                    valid = false
                }
                for item in items {
                    guard let bullet = bulletPoint(item, what: what) else {
                        valid = false
                        continue
                    }
                    bulletPoints.append(bullet)
                }
            }
            guard valid else { return nil }
            return Localized(
                locale: locale, header: header, body: body, image: image, headerPosition: headerPosition, bulletPoints: bulletPoints,
                identifier: identifier(id: id, locale: locale, header: header, body: body, image: image,
                                       headerPosition: headerPosition, bulletPoints: bulletPoints))
        }

        private func bulletPoint(_ node: YAMLNode, what: String) -> BulletPoint? {
            guard let map = reader.mapping(node, "a bullet point of \(what)", keys: ["text", "image"], required: ["text", "image"]),
                let textNode = map["text"], let text = reader.text(textNode, "bullet point"),
                let imageNode = map["image"]
            else { return nil }
            let image = reference(imageNode, size: "BULLET_POINT", what: "the icon of a bullet point of \(what)")
            guard checkLength(text, Limits.bulletText, "bullet point of \(what)", at: textNode), let image else { return nil }
            return BulletPoint(text: text, image: image)
        }

        /// `{id, altText}`: an image of `images:` of `size`.
        private func reference(_ node: YAMLNode, size: String, what: String) -> ImageReference? {
            guard let map = reader.mapping(node, what, keys: ["id", "altText"], required: ["id", "altText"]),
                let idNode = map["id"], let imageId = reader.text(idNode, "an image id"),
                let altNode = map["altText"], let altText = reader.text(altNode, "altText")
            else { return nil }
            guard let image = images.first(where: { $0.id == imageId }) else {
                let suggestion = DidYouMean.suggestion(for: imageId, among: images.map(\.id))
                log.error("unknown image '\(imageId)': messages.yaml declares it in no 'images' entry", at: idNode, suggestion: suggestion)
                return nil
            }
            guard image.size == size else {
                log.error("\(what) must be a \(size) image; \(imageId) is \(image.size)", at: idNode)
                return nil
            }
            guard checkLength(altText, Limits.altText, "altText of \(what)", at: altNode) else { return nil }
            return ImageReference(id: imageId, identifier: image.identifier, altText: altText)
        }

        private func checkLength(_ text: String, _ limit: Int, _ what: String, at node: YAMLNode) -> Bool {
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
