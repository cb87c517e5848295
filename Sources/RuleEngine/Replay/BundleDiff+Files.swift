/// What `catalog.yaml` and `messages.yaml` declare as diff items: the catalog's offers, and the
/// retention messages (their texts per locale) and images. The catalog's currencies and
/// `products:`, and the messages' per-product defaults, only feed the checker or Apple's own
/// fallback: no decision reads them.
extension BundleDiff {
    /// Each catalog offer: its type, products and pending time.
    static func catalogOffers(_ bundle: RuleBundle) -> [BundleDiffItem] {
        let file = path(of: "catalog.yaml", in: bundle)
        return bundle.catalog.offers.map { offer in
            let products = "[" + offer.productIds.joined(separator: ", ") + "]"
            let expiry = offer.expiresAfter.map(RuleTime.renderDuration) ?? "default"
            return BundleDiffItem(
                section: nil, kind: "offer", name: offer.id, location: BundleLocation(file: file, line: offer.line, column: 1),
                summary: "\(offer.type) for \(products)" + (offer.expiresAfter == nil ? "" : ", expires after \(expiry)"),
                aspects: [BundleDiffAspect(name: "type", text: offer.type), BundleDiffAspect(name: "productIds", text: products),
                          BundleDiffAspect(name: "expiresAfter", text: expiry)])
        }
    }

    /// Each retention message: per locale, the header, body, image, header position and bullet points.
    static func messages(_ bundle: RuleBundle) -> [BundleDiffItem] {
        let file = path(of: "messages.yaml", in: bundle)
        return bundle.messages.messages.map { message in
            var aspects: [BundleDiffAspect] = []
            for text in message.locales {
                func aspect(_ field: String, _ value: String?) {
                    if let value { aspects.append(BundleDiffAspect(name: "\(text.locale) \(field)", text: value)) }
                }
                aspect("header", quoted(text.header))
                aspect("body", quoted(text.body))
                aspect("image", text.image.map(image))
                aspect("headerPosition", text.headerPosition)
                aspect("bulletPoints", text.bulletPoints.isEmpty ? nil
                    : text.bulletPoints.map { "\(quoted($0.text)) with \(image($0.image))" }.joined(separator: ", "))
            }
            return BundleDiffItem(
                section: .retention, kind: "message", name: message.id,
                location: BundleLocation(file: file, line: message.line, column: 1),
                summary: "locales " + message.locales.map(\.locale).joined(separator: ", "), aspects: aspects)
        }
    }

    /// Each image of `messages.yaml`: its file, size and recorded SHA-256.
    static func images(_ bundle: RuleBundle) -> [BundleDiffItem] {
        let file = path(of: "messages.yaml", in: bundle)
        return bundle.messages.images.map { image in
            BundleDiffItem(
                section: .retention, kind: "image", name: image.id, location: BundleLocation(file: file, line: image.line, column: 1),
                summary: "\(image.size) \(image.file)",
                aspects: [BundleDiffAspect(name: "file", text: image.file), BundleDiffAspect(name: "size", text: image.size),
                          BundleDiffAspect(name: "sha256", text: image.sha256)])
        }
    }

    /// The path the bundle's diagnostics print for its file `name`.
    private static func path(of name: String, in bundle: RuleBundle) -> String {
        bundle.files.first { $0.name == name }?.path ?? name
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    private static func image(_ reference: RetentionMessages.ImageReference) -> String {
        "\(reference.id) (\(quoted(reference.altText)))"
    }
}
