import AppStoreServer
import Foundation
import Testing

/// Apple's review states of retention messages and images are one vocabulary: Get Message List's
/// `messageState` and Get Image List's `imageState` read into the same ``ReviewState``, keep
/// states newer than this code, and encode exactly as Apple sent them.
@Suite struct ReviewStateModelTests {
    static let message = UUID(uuidString: "3E5A0000-0000-8000-8000-000000000001")!

    @Test func theMessageListKeepsUnknownStates() throws {
        let json = #"{"messageIdentifiers":[{"messageIdentifier":"3e5a0000-0000-8000-8000-000000000001","messageState":"REJECTED"},{"messageIdentifier":"3e5a0000-0000-8000-8000-000000000001","messageState":"UNDER_APPEAL"}]}"#
        let list = try ModelFixture.decode(GetMessageListResponse.self, json: json)
        #expect(list.messageIdentifiers == [
            .init(messageIdentifier: Self.message, messageState: .rejected),
            .init(messageIdentifier: Self.message, messageState: ReviewState(rawValue: "UNDER_APPEAL")),
        ])
        #expect(list.messageIdentifiers?[1].messageState?.isKnown == false)
        #expect(try ModelFixture.encode(list) == json)
    }

    @Test func messagesAndImagesShareTheStates() throws {
        let messages = try ModelFixture.decode(
            GetMessageListResponse.self, json: #"{"messageIdentifiers":[{"messageIdentifier":"3e5a0000-0000-8000-8000-000000000001","messageState":"APPROVED"}]}"#)
        let images = try ModelFixture.decode(
            GetImageListResponse.self, json: #"{"imageIdentifiers":[{"imageIdentifier":"3e5a0000-0000-8000-8000-000000000001","imageState":"APPROVED"}]}"#)
        let messageState = try #require(messages.messageIdentifiers?.first?.messageState)
        let imageState = try #require(images.imageIdentifiers?.first?.imageState)
        #expect(messageState == imageState && messageState == .approved)
        #expect(ReviewState.knownValues.map(\.rawValue) == ["PENDING", "APPROVED", "REJECTED"])
        for state in ReviewState.knownValues {
            #expect(try ModelFixture.decode(ReviewState.self, json: #""\#(state.rawValue)""#) == state)
            #expect(try ModelFixture.encode(state) == #""\#(state.rawValue)""#)
        }
    }
}
