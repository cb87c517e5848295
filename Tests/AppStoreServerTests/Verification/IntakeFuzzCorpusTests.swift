import AppStoreServer
import Foundation
import FuzzTargets
import Testing

extension VerificationTests {
    /// The intake fuzz target's committed inputs, replayed: every regression in
    /// `Fuzz/intake/crashes` (each ended the process before its fix) is now refused, and every seed
    /// in `Fuzz/intake/corpus` runs to an answer.
    @Suite struct IntakeFuzzCorpusTests {
        static func target() throws -> IntakeFuzzTarget {
            let testCA = try #require(Bundle.module.url(forResource: "testCA.der", withExtension: nil, subdirectory: "Fixtures"))
            return try IntakeFuzzTarget(chain: .init(directory: testCA.deletingLastPathComponent()))
        }

        @Test func everyRegressionIsRefused() async throws {
            let target = try Self.target()
            let crashes = try FuzzCorpus.inputs("intake", "crashes")
            #expect(crashes.count >= 5)
            for (name, input) in crashes {
                let outcome = await target.run(input)
                #expect(outcome == .refused(code: "INVALID_PAYLOAD"), "\(name): \(outcome)")
            }
        }

        @Test func everySeedRunsToAnAnswer() async throws {
            let target = try Self.target()
            var verified = 0
            for (_, input) in try FuzzCorpus.inputs("intake", "corpus") {
                if case .verified = await target.run(input) { verified += 1 }
            }
            // The seeds that are meant to verify do (so mutations start from payloads that get deep).
            #expect(verified >= 10)
        }

        @Test func theModesSignWhatTheyAreGiven() async throws {
            let target = try Self.target()
            let notification = Data(#"{"notificationType":"TEST","notificationUUID":"u","signedDate":1767225600000,"data":{"environment":"Sandbox","appAppleId":1234,"bundleId":"com.example"}}"#.utf8)
            #expect(await target.run(Data([1]) + notification) == .verified(notificationType: "TEST"))
            #expect(await target.run(Data([0]) + notification) == .refusedBody(.missingSignedPayload))
            #expect(await target.run(Data([2]) + Data("{}".utf8)) == .refused(code: "INVALID_APP_IDENTIFIER"))
            #expect(await target.run(Data([3]) + Data(#"{"alg":"HS256"}"#.utf8)) == .refused(code: "UNSUPPORTED_ALGORITHM"))
            #expect(await target.run(Data()) == .refusedBody(.malformed))
        }
    }
}
