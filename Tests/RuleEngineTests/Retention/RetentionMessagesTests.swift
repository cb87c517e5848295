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

    @Test("Apple's limits: header 66, body 144; no bullet points (each needs an image, not supported yet)")
    func limits() {
        let header = String(repeating: "h", count: 67)
        let body = String(repeating: "b", count: 145)
        let found = errors("""
            messages:
              - id: m
                locales:
                  en-US: {header: \(header), body: \(body)}
              - id: n
                locales:
                  en-US: {header: h, body: b, bulletPoints: [a]}
            """)
        #expect(found.contains("the header of message m (en-US) has 67 characters; Apple allows at most 66"))
        #expect(found.contains("the body of message m (en-US) has 145 characters; Apple allows at most 144"))
        #expect(found.contains { $0.contains("bulletPoints") })
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
