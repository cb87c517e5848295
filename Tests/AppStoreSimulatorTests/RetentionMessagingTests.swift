import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// The simulator's Retention Messaging management endpoints through Verdict's API client:
/// uploads are reviewed, a default message needs an approved message, the realtime URL is
/// https only, and Apple's error codes come back for each refusal.
@Suite struct RetentionMessagingTests {
    static let first = UUID(uuidString: "8C1D0E55-0000-8000-8000-000000000001")!
    static let second = UUID(uuidString: "8C1D0E55-0000-8000-8000-000000000002")!

    @Test func uploadsAreReviewedAndListed() async throws {
        try await withSimulator { harness in
            await harness.store.setMessageReviewDelay(3600)
            try await harness.client.uploadMessage(messageIdentifier: Self.first, .init(header: "Stay", body: "Half off."))
            let pending = try await harness.client.getMessageList().messageIdentifiers
            #expect(pending == [.init(messageIdentifier: Self.first, messageState: .pending)])
            harness.store.clock.advance(by: 3600)
            #expect(try await harness.client.getMessageList().messageIdentifiers?.first?.messageState == .approved)
            try await harness.store.setMessageState(Self.first, .rejected)
            #expect(try await harness.client.getMessageList().messageIdentifiers?.first?.messageState == .rejected)

            // Apple's refusals, with Apple's codes.
            let duplicate = await #expect(throws: AppStoreAPIFailure.self) {
                try await harness.client.uploadMessage(messageIdentifier: Self.first, .init(header: "Stay", body: "Half off."))
            }
            #expect(duplicate?.httpStatus == 409 && duplicate?.rawErrorCode == 4_090_001)
            let tooLong = await #expect(throws: AppStoreAPIFailure.self) {
                try await harness.client.uploadMessage(
                    messageIdentifier: Self.second, .init(header: String(repeating: "h", count: 67), body: "b"))
            }
            #expect(tooLong?.httpStatus == 400)
            try await harness.client.deleteMessage(messageIdentifier: Self.first)
            let gone = await #expect(throws: AppStoreAPIFailure.self) { try await harness.client.deleteMessage(messageIdentifier: Self.first) }
            #expect(gone?.rawErrorCode == 4_040_015)
        }
    }

    @Test func aDefaultMessageNeedsAnApprovedMessage() async throws {
        try await withSimulator { harness in
            await harness.store.setMessageReviewDelay(60)
            try await harness.client.uploadMessage(messageIdentifier: Self.first, .init(header: "Before you go", body: "Pro keeps it all."))
            let request = DefaultConfigurationRequest(messageIdentifier: Self.first)
            let notApproved = await #expect(throws: AppStoreAPIFailure.self) {
                try await harness.client.configureDefaultMessage(productId: "com.example.pro", locale: "en-US", request)
            }
            #expect(notApproved?.rawErrorCode == 4_030_017)
            let none = await #expect(throws: AppStoreAPIFailure.self) {
                try await harness.client.getDefaultMessage(productId: "com.example.pro", locale: "en-US")
            }
            #expect(none?.rawErrorCode == 4_040_020)
            harness.store.clock.advance(by: 60)
            try await harness.client.configureDefaultMessage(productId: "com.example.pro", locale: "en-US", request)
            #expect(try await harness.client.getDefaultMessage(productId: "com.example.pro", locale: "en-US") == request)
            let badLocale = await #expect(throws: AppStoreAPIFailure.self) {
                try await harness.client.configureDefaultMessage(productId: "com.example.pro", locale: "english", request)
            }
            #expect(badLocale?.httpStatus == 400)
            try await harness.client.deleteDefaultMessage(productId: "com.example.pro", locale: "en-US")
            await #expect(throws: AppStoreAPIFailure.self) {
                _ = try await harness.client.getDefaultMessage(productId: "com.example.pro", locale: "en-US")
            }
        }
    }

    @Test func theRealtimeURLIsHttpsOnly() async throws {
        try await withSimulator { harness in
            let unset = await #expect(throws: AppStoreAPIFailure.self) { try await harness.client.getRealtimeURL() }
            #expect(unset?.rawErrorCode == 4_040_021)
            let plain = await #expect(throws: AppStoreAPIFailure.self) { try await harness.client.setRealtimeURL("http://example.com/rt") }
            #expect(plain?.httpStatus == 400)
            try await harness.client.setRealtimeURL("https://verdict.example.com/v1/retention/realtime")
            #expect(try await harness.client.getRealtimeURL().realtimeURL == "https://verdict.example.com/v1/retention/realtime")
            #expect(await harness.store.realtimeURL() == "https://verdict.example.com/v1/retention/realtime")
            try await harness.client.deleteRealtimeURL()
            #expect(await harness.store.realtimeURL() == nil)
        }
    }
}
