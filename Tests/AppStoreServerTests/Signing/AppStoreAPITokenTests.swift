import AppStoreServer
import Crypto
import Foundation
import Testing

extension SigningTests {
    @Suite("App Store Server API token")
    struct AppStoreAPITokenTests {
        static func minter(at date: Date = SigningFixtures.fixedDate) throws -> AppStoreAPIToken {
            AppStoreAPIToken(
                privateKey: try SigningFixtures.privateKey(), keyId: "keyId", issuerId: "issuerId",
                bundleId: "com.example", clock: { date }
            )
        }

        @Test func headerAndClaimsAreExact() throws {
            let token = try Self.minter().make()
            let parts = try #require(CompactJWS(token))
            #expect(String(decoding: parts.header, as: UTF8.self) == #"{"alg":"ES256","kid":"keyId","typ":"JWT"}"#)
            #expect(String(decoding: parts.payload, as: UTF8.self) ==
                #"{"aud":"appstoreconnect-v1","bid":"com.example","exp":1698149200,"iat":1698148900,"iss":"issuerId"}"#)
        }

        @Test func verifiesWithApplePublicKey() throws {
            let token = try Self.minter().make()
            let claims = try AppStoreAPIToken.verify(
                token, publicKey: SigningFixtures.publicKey(), keyId: "keyId", issuerId: "issuerId",
                bundleId: "com.example", now: SigningFixtures.fixedDate.addingTimeInterval(299)
            )
            #expect(claims.exp == claims.iat + 300)
        }

        @Test func eachTokenUsesTheClockAtMintTime() throws {
            let box = SigningTestClock(SigningFixtures.fixedDate)
            let minter = AppStoreAPIToken(
                privateKey: try SigningFixtures.privateKey(), keyId: "keyId", issuerId: "issuerId",
                bundleId: "com.example", clock: { box.now }
            )
            let first = try #require(CompactJWS(try minter.make()))
            box.now = box.now.addingTimeInterval(61)
            let second = try #require(CompactJWS(try minter.make()))
            #expect(try SigningFixtures.jsonObject(first.payload)["iat"] as? Int == 1_698_148_900)
            #expect(try SigningFixtures.jsonObject(second.payload)["iat"] as? Int == 1_698_148_961)
        }

        @Test func verifyRejectsExpiredToken() throws {
            let token = try Self.minter().make()
            #expect(throws: SignatureError.invalidClaim("exp")) {
                try AppStoreAPIToken.verify(
                    token, publicKey: SigningFixtures.publicKey(), keyId: "keyId", issuerId: "issuerId",
                    bundleId: "com.example", now: SigningFixtures.fixedDate.addingTimeInterval(300)
                )
            }
        }

        @Test func verifyRejectsOtherBundle() throws {
            let token = try Self.minter().make()
            #expect(throws: SignatureError.invalidClaim("bid")) {
                try AppStoreAPIToken.verify(
                    token, publicKey: SigningFixtures.publicKey(), keyId: "keyId", issuerId: "issuerId",
                    bundleId: "com.example.other", now: SigningFixtures.fixedDate
                )
            }
        }
    }
}

/// A mutable clock for tests that advance time between calls.
final class SigningTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ date: Date) { value = date }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
