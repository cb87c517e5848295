import AppStoreServer
import Foundation
import RuleEngine
import Testing

@Suite("Retention: messages.yaml")
struct RetentionMessagesTests {
    private func errors(_ messages: String) -> [String] {
        RetentionTestSupport.errors(
            rules: RetentionTestSupport.rulesFile("    - {id: r1, answer: {message: m}}"), messages: messages)
    }

    @Test("messages are read with their locales, defaults and identifiers")
    func reads() throws {
        let bundle = try RetentionTestSupport.bundle(rules: RetentionTestSupport.rulesFile("    - {id: r1, answer: {message: stay-annual}}"))
        let message = try #require(bundle.messages.message("stay-annual"))
        #expect(message.locales.map(\.locale) == ["en-US", "de-DE"])
        #expect(bundle.messages.defaults == ["com.example.pro.annual": "why-stay"])
        let identifier = message.locales[0].identifier
        #expect(identifier.uuidString.dropFirst(14).first == "8", "an RFC 9562 version-8 UUID")
        #expect("89AB".contains(identifier.uuidString.dropFirst(19).first!), "RFC 9562 variant")
    }

    @Test("the identifier is stable for the same text and changes with any field")
    func identifiers() {
        let base = RetentionMessages.identifier(id: "a", locale: "en-US", header: "h", body: "b")
        #expect(base == RetentionMessages.identifier(id: "a", locale: "en-US", header: "h", body: "b"))
        // Computed independently (Python hashlib): SHA-256 over the NUL-joined fields, version 8, RFC variant.
        #expect(base.uuidString == "AC5F3725-2A35-871A-8D01-E2C9F14A4349")
        for other in [
            RetentionMessages.identifier(id: "b", locale: "en-US", header: "h", body: "b"),
            RetentionMessages.identifier(id: "a", locale: "en-GB", header: "h", body: "b"),
            RetentionMessages.identifier(id: "a", locale: "en-US", header: "h2", body: "b"),
            RetentionMessages.identifier(id: "a", locale: "en-US", header: "h", body: "b2"),
            RetentionMessages.identifier(id: "a", locale: "en-US", header: "hb", body: ""),
        ] {
            #expect(other != base)
        }
    }

    @Test("locale lookup: exact (case and _ ignored), then the language, else none")
    func locales() throws {
        let bundle = try RetentionTestSupport.bundle(rules: RetentionTestSupport.rulesFile("    - {id: r1, answer: {message: stay-annual}}"))
        let message = try #require(bundle.messages.message("stay-annual"))
        #expect(message.localized(for: "de_de")?.locale == "de-DE")
        #expect(message.localized(for: "de-AT")?.locale == "de-DE")
        #expect(message.localized(for: "en-GB")?.locale == "en-US")
        #expect(message.localized(for: "fr-FR") == nil)
    }

    @Test("Apple's limits: header 66, body 144, alt text 150, 5 bullet points of 66; images of the right size, declared")
    func limits() {
        let header = String(repeating: "h", count: 67)
        let body = String(repeating: "b", count: 145)
        let sha = String(repeating: "a", count: 64)
        let bullet = "{text: \(String(repeating: "t", count: 67)), image: {id: dot, altText: d}}"
        let found = errors("""
            images:
              - {id: banner, file: images/banner.png, size: FULL_SIZE, sha256: \(sha)}
              - {id: dot, file: images/dot.png, size: BULLET_POINT, sha256: \(sha)}
              - {id: dot, file: images/dot2.png, size: BULLET_POINT, sha256: \(sha)}
              - {id: up, file: ../outside.png, size: BULLET_POINT, sha256: \(sha)}
              - {id: caps, file: images/caps.png, size: BULLET_POINT, sha256: \(sha.uppercased())}
            messages:
              - id: m
                locales:
                  en-US: {header: \(header), body: \(body)}
              - id: n
                locales:
                  en-US:
                    header: h
                    body: b
                    image: {id: dot, altText: \(String(repeating: "a", count: 151))}
                    headerPosition: ABOVE_BODY
                    bulletPoints: [\(bullet), {text: t, image: {id: banner, altText: b}}, {text: t, image: {id: nope, altText: b}}]
              - id: o
                locales:
                  en-US:
                    header: h
                    body: b
                    headerPosition: ABOVE_IMAGE
                    bulletPoints: [\(Array(repeating: "{text: t, image: {id: dot, altText: d}}", count: 6).joined(separator: ", "))]
            """)
        #expect(found.contains("the header of message m (en-US) has 67 characters; Apple allows at most 66"))
        #expect(found.contains("the body of message m (en-US) has 145 characters; Apple allows at most 144"))
        #expect(found.contains("image id 'dot' is declared twice"))
        #expect(found.contains("the file of image up must be a .png path inside the bundle folder, such as images/banner.png"))
        #expect(found.contains { $0.hasPrefix("the sha256 of image caps must be 64 lowercase hex digits") })
        #expect(found.contains("the image of message n (en-US) must be a FULL_SIZE image; dot is BULLET_POINT"))
        #expect(found.contains("the bullet point of message n (en-US) has 67 characters; Apple allows at most 66"))
        #expect(found.contains("the icon of a bullet point of message n (en-US) must be a BULLET_POINT image; banner is FULL_SIZE"))
        #expect(found.contains("unknown image 'nope': messages.yaml declares it in no 'images' entry"))
        #expect(found.contains("the header of message o (en-US) cannot be ABOVE_IMAGE: the message has no image"))
        #expect(found.contains("message o (en-US) has 6 bullet points; Apple allows at most 5"))
    }

    @Test("an image and bullet points are part of the message's identifier; a text-only message keeps its own")
    func richIdentifiers() throws {
        let plain = RetentionMessages.identifier(id: "a", locale: "en-US", header: "h", body: "b")
        let image = RetentionMessages.ImageReference(
            id: "i", identifier: RetentionMessages.imageIdentifier(size: "FULL_SIZE", sha256: String(repeating: "0", count: 64)), altText: "x")
        let withImage = RetentionMessages.identifier(id: "a", locale: "en-US", header: "h", body: "b", image: image)
        let otherAlt = RetentionMessages.identifier(
            id: "a", locale: "en-US", header: "h", body: "b", image: .init(id: "i", identifier: image.identifier, altText: "y"))
        let bullets = RetentionMessages.identifier(
            id: "a", locale: "en-US", header: "h", body: "b", bulletPoints: [.init(text: "t", image: image)])
        #expect(Set([plain, withImage, otherAlt, bullets]).count == 4)
        #expect(plain.uuidString == "AC5F3725-2A35-871A-8D01-E2C9F14A4349", "unchanged by images")
        // Computed independently (Python hashlib): SHA-256 of "verdict-retention-image-1\0FULL_SIZE\0" + 64 zeros.
        #expect(image.identifier.uuidString == "9A822F14-BC93-824F-BC05-A1591AD6A6F1")
        #expect(RetentionMessages.imageIdentifier(size: "BULLET_POINT", sha256: String(repeating: "0", count: 64)) != image.identifier)
    }

    @Test("the shipped bundle's images are read from its folder: sha256, PNG, size and opacity checked")
    func shippedImages() throws {
        let bundle = try RuleBundle.load(directory: ShippedBundleTests.rulesDirectory)
        #expect(bundle.messages.images.map(\.size) == ["FULL_SIZE", "BULLET_POINT", "BULLET_POINT", "BULLET_POINT"])
        let text = try #require(bundle.messages.message("what-you-lose")?.localized(for: "en-US"))
        #expect(text.imageIdentifiers.count == 4 && !text.isTextOnly && text.headerPosition == "ABOVE_IMAGE")
        for image in bundle.messages.images {
            let png = try RetentionImageFiles.read(image, directory: ShippedBundleTests.rulesDirectory)
            #expect(try PNGImageHeader.read(png).hasTransparency == false)
        }
    }

    @Test("limits count characters, not bytes: 66 emoji fit")
    func charactersNotBytes() {
        let header = String(repeating: "🎉", count: 66)
        #expect(errors("messages:\n  - {id: m, locales: {en-US: {header: \"\(header)\", body: b}}}").isEmpty)
    }

    @Test("structure errors: duplicate ids, bad locales, empty texts, missing fields, unknown defaults")
    func structure() {
        let found = errors("""
            messages:
              - {id: m, locales: {en-US: {header: h, body: b}}}
              - {id: m, locales: {en-US: {header: h, body: b}}}
              - {id: n, locales: {english: {header: h, body: b}}}
              - {id: o, locales: {en-US: {header: '  ', body: b}}}
              - {id: p, locales: {en-US: {header: h}}}
              - {id: q, locales: {en-US: {header: h, body: b, image: x.png}}}
            defaults:
              com.example.pro.annual: mm
            """)
        #expect(found.contains("message id 'm' is declared twice"))
        #expect(found.contains("'english' is not a locale such as en-US or de-DE"))
        #expect(found.contains("the header of message o (en-US) is empty"))
        #expect(found.contains { $0.contains("body") && $0.contains("message p (en-US)") })
        #expect(found.contains { $0.contains("image") })
        #expect(found.contains("unknown message 'mm': messages.yaml does not declare it"))
    }

    @Test("a retention section needs messages.yaml")
    func needsTheFile() {
        let found = RetentionTestSupport.errors(
            rules: RetentionTestSupport.rulesFile("    - {id: r1, answer: {message: m}}"), messages: nil)
        #expect(found.contains("a retention section needs messages.yaml beside it, declaring its messages"))
    }
}
