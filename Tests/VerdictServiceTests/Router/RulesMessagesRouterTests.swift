import Foundation
import RuleEngine
import Testing
import VerdictService
import VerdictStorage

/// `GET /v1/rules` and the console's Rules page list the retention messages and images of the
/// active bundle with their review states, and warn about each one Apple has not approved.
@Suite struct RulesMessagesRouterTests {
    @Test func messagesNotApprovedAreListedAndWarnedAbout() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": ConsoleTests.tokens]) { harness in
            let messages = try RuleBundle.load(directory: ServiceHarness.rulesDirectory).messages
            let texts = messages.messages.flatMap { message in message.locales.map { (message.id, $0) } }
            let count = texts.count + messages.images.count

            let before = try await harness.send(.get, "/v1/rules").body.jsonObject
            #expect(before["messages"]?.arrayValue?.count == count)
            let warnings = before["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(warnings.count == count)
            #expect(warnings.contains(
                "message what-you-lose (en-US) is not uploaded to Apple: rules answering with it are skipped (run `verdict appstore messages sync`)"))

            // Everything approved but one image, which Apple is still reviewing.
            var states = texts.map { id, text in
                RetentionMessageState(messageIdentifier: text.identifier.uuidString, messageId: id, locale: text.locale,
                                      state: "APPROVED", checkedAt: 0)
            }
            states += messages.images.map {
                RetentionMessageState(messageIdentifier: $0.identifier.uuidString, messageId: $0.id, locale: $0.size,
                                      state: $0.id == "icon-cloud" ? "PENDING" : "APPROVED", checkedAt: 0, kind: .image)
            }
            try await harness.service.apps.first.repository.recordRetentionMessageStates(states)
            let after = try await harness.send(.get, "/v1/rules").body.jsonObject
            #expect(after["warnings"]?.arrayValue?.compactMap(\.stringValue)
                    == ["image icon-cloud is PENDING at Apple: messages showing it are skipped until Apple approves it"])
            let cloud = after["messages"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == "icon-cloud" }
            #expect(cloud?["kind"]?.stringValue == "image" && cloud?["locale"]?.stringValue == "BULLET_POINT")

            let session = try #require(ConsoleTests.cookie("verdict_session", in: try await ConsoleTests.signIn(harness, token: ConsoleTests.viewer)))
            let page = try await harness.send(.get, "/console/rules", token: nil, headers: [.cookie: "verdict_session=\(session.value)"])
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains("Messages Apple has not approved") && html.contains("image icon-cloud is PENDING at Apple"))
        }
    }
}
