import Foundation
import RuleEngine
import Testing

/// Messages with an image or bullet points: never beside an offer or an alternate product (the
/// checker refuses it), and answered only once Apple approved the text and every image it shows.
@Suite("Retention: messages with images")
struct RetentionImageRulesTests {
    static let sha = String(repeating: "b", count: 64)
    static let messages = RetentionTestSupport.messages.replacingOccurrences(of: "messages:\n", with: """
        images:
          - {id: banner, file: images/banner.png, size: FULL_SIZE, sha256: \(sha)}
          - {id: dot, file: images/dot.png, size: BULLET_POINT, sha256: \(sha)}
        messages:
          - id: rich
            locales:
              en-US:
                header: Before you go
                body: All of this stays yours.
                image: {id: banner, altText: A banner}
                bulletPoints: [{text: Presets, image: {id: dot, altText: A dot}}]

        """)

    @Test("a message with an image or bullet points beside an offer or an alternate product is refused")
    func refusedWithOffersAndPlans() {
        let errors = RetentionTestSupport.errors(rules: RetentionTestSupport.rulesFile("""
                - {id: with-offer, answer: {message: rich, offer: {id: promo-annual-50, type: PROMOTIONAL}}}
                - {id: with-plan, answer: {message: rich, alternateProduct: {productId: com.example.pro.monthly-commit}}}
                - {id: alone, answer: {message: rich}}
            """), messages: Self.messages)
        #expect(errors == [
            "message rich (en-US) shows an image or bullet points; Apple shows only a text message with an offer",
            "message rich (en-US) shows an image or bullet points; Apple shows only a text message with an alternate product",
        ])
    }

    @Test("answered only when Apple approved the text and each image; otherwise the next rule, with the reason")
    func imagesMustBeApproved() throws {
        let bundle = try RetentionTestSupport.bundle(
            rules: RetentionTestSupport.rulesFile("    - {id: rich-first, answer: {message: rich}}\n    - {id: plain, answer: {message: why-stay}}"),
            messages: Self.messages)
        let text = try #require(bundle.messages.message("rich")?.localized(for: "en-US"))
        let plain = try #require(bundle.messages.message("why-stay")?.locales.first?.identifier)
        let banner = try #require(bundle.messages.image("banner")?.identifier)
        let dot = try #require(bundle.messages.image("dot")?.identifier)
        #expect(text.imageIdentifiers == [banner, dot])
        let facts = try RetentionTestSupport.facts()

        let textOnly = bundle.decideRetention(facts, limits: NoLimitsRecorded(), messageStates: ApprovedMessages([text.identifier, plain, banner]))
        #expect(textOnly.rule?.id == "plain")
        #expect(textOnly.trace.first { $0.rule?.id == "rich-first" }?.note == "message rich (en-US) shows image dot, not approved by Apple")

        let all = bundle.decideRetention(facts, limits: NoLimitsRecorded(), messageStates: ApprovedMessages([text.identifier, banner, dot]))
        #expect(all.rule?.id == "rich-first" && all.answer?.messageIdentifier == text.identifier)
    }
}
