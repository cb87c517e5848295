import AppStoreServer
import Foundation
import RuleEngine
import Testing
import VerdictStorage

@testable import VerdictService

/// The review of the bundle's texts and images reads the recorded states as Apple's
/// ``ReviewState``: only `APPROVED` is approved, a state newer than this code is shown as Apple
/// sent it, and a text no sync recorded is `NOT_UPLOADED`.
@Suite struct RetentionMessageReviewTests {
    @Test func onlyApprovedIsApprovedAndOtherStatesAreShownAsSent() throws {
        let messages = try RuleBundle.load(directory: ServiceHarness.rulesDirectory).messages
        let texts = messages.messages.flatMap { message in message.locales.map { (message.id, $0) } }
        let (appealedId, appealed) = try #require(texts.first)
        let (missingId, missing) = try #require(texts.last)
        #expect(appealed.identifier != missing.identifier)
        var states = texts.filter { $0.1.identifier != missing.identifier }.map { id, text in
            RetentionMessageState(messageIdentifier: text.identifier.uuidString.lowercased(), messageId: id, locale: text.locale,
                                  state: text.identifier == appealed.identifier ? "UNDER_APPEAL" : "APPROVED", checkedAt: 0)
        }
        states += messages.images.map {
            RetentionMessageState(messageIdentifier: $0.identifier.uuidString, messageId: $0.id, locale: $0.size,
                                  state: ReviewState.approved.rawValue, checkedAt: 0, kind: .image)
        }
        let review = RetentionMessageReview(messages: messages, states: states)
        #expect(review.warnings == [
            "message \(appealedId) (\(appealed.locale)) is UNDER_APPEAL at Apple: rules answering with it are skipped until Apple approves it",
            "message \(missingId) (\(missing.locale)) is not uploaded to Apple: rules answering with it are skipped (run `verdict appstore messages sync`)",
        ])
        let item = try #require(review.items.first)
        #expect(item.review == ReviewState(rawValue: "UNDER_APPEAL") && item.review?.isKnown == false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(item), as: UTF8.self)
                == #"{"id":"\#(appealedId)","identifier":"\#(appealed.identifier.uuidString.lowercased())","kind":"message","locale":"\#(appealed.locale)","state":"UNDER_APPEAL"}"#)
        let notUploaded = try #require(review.items.first { $0.identifier == missing.identifier.uuidString.lowercased() })
        #expect(notUploaded.review == nil && notUploaded.state == "NOT_UPLOADED")
    }
}
