import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

extension VerificationTests {
    /// Values an attacker (or a merely odd payload) chooses never reach an API that traps: out of
    /// range dates and numbers are refused as invalid payloads before the chain is looked at, a date
    /// outside the trusted roots' validity never reaches swift-certificates, and repeated names in
    /// the payload or header are refused.
    @Suite struct UntrustedValueTests {
        let trusted: SimulatorPKI
        let attacker: SimulatorPKI
        let verifier: SignedDataVerifier

        init() throws {
            trusted = try TestValues.pki()
            attacker = try TestValues.pki { $0.name = "Attacker" }
            verifier = try TestValues.verifier(root: trusted.rootCertificateDER)
        }

        /// A DID_RENEW notification whose `signedDate` is the JSON literal `signedDate`.
        private func notificationJSON(signedDate: String, data: String? = nil) -> Data {
            let data = data ?? #"{"environment":"Sandbox","appAppleId":1234,"bundleId":"com.example"}"#
            return Data(#"""
                {"notificationType":"DID_RENEW","notificationUUID":"6f2c2b4e-1b1e-4a44-9a43-1f2d3c4b5a69",\#
                "version":"2.0","signedDate":\#(signedDate),"data":\#(data)}
                """#.utf8)
        }

        private static let hostileDates = [
            "253402300800000", "18446744073709551616", "-1", "1e999", "-1e999", "\"1767225600000\"", "1e308",
        ]

        @Test(arguments: hostileDates)
        func hostileSignedDatesAreInvalidPayloadsUnderAnyChain(_ literal: String) async throws {
            for pki in [attacker, trusted] {
                let jws = try pki.signer().sign(payloadJSON: notificationJSON(signedDate: literal))
                await expectVerificationError("INVALID_PAYLOAD") { try await verifier.verifyNotification(jws) }
            }
        }

        @Test func aSignedDateInYear9999NeverReachesTheChainCheckOfSwiftCertificates() async throws {
            for pki in [attacker, trusted] {
                let jws = try pki.signer().sign(payloadJSON: notificationJSON(signedDate: "253402300799999"))
                let error = await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(jws) }
                #expect(error?.message.contains("outside every trusted root's validity") == true)
            }
        }

        @Test func aFractionalSignedDateIsMerelyOdd() async throws {
            let jws = try trusted.signer().sign(payloadJSON: notificationJSON(signedDate: "1767225600000.25"))
            let verified = try await verifier.verifyNotification(jws)
            #expect(verified.payload.signedDate?.appStoreMilliseconds == 1_767_225_600_000)
            // 1.5 ms after 1970: before the trusted root's validity.
            let early = try trusted.signer().sign(payloadJSON: notificationJSON(signedDate: "1.5"))
            await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(early) }
        }

        @Test(arguments: [
            #""purchaseDate":253402300800000"#, #""expiresDate":-5"#, #""signedDate":1e999"#,
            #""price":1e30"#, #""price":18446744073709551616"#, #""price":"990""#, #""originalPurchaseDate":"x""#,
        ])
        func absurdNestedTransactionsAreInvalidPayloads(_ member: String) async throws {
            let signer = trusted.signer()
            let transaction = try signer.sign(payloadJSON: Data(#"""
                {"transactionId":"1","originalTransactionId":"1","bundleId":"com.example","environment":"Sandbox",\#
                "productId":"p",\#(member)}
                """#.utf8))
            let data = #"{"environment":"Sandbox","appAppleId":1234,"bundleId":"com.example","signedTransactionInfo":"\#(transaction)"}"#
            let jws = try signer.sign(payloadJSON: notificationJSON(signedDate: "1767225600000", data: data))
            await expectVerificationError("INVALID_PAYLOAD") { try await verifier.verifyNotification(jws) }
        }

        @Test(arguments: [
            #""renewalDate":253402300800000"#, #""gracePeriodExpiresDate":-1"#, #""signedDate":18446744073709551616"#,
            #""recentSubscriptionStartDate":1e999"#, #""renewalPrice":1e30"#,
        ])
        func absurdNestedRenewalInfoIsAnInvalidPayload(_ member: String) async throws {
            let signer = trusted.signer()
            let renewal = try signer.sign(payloadJSON: Data(#"""
                {"originalTransactionId":"1","productId":"p","environment":"Sandbox",\#(member)}
                """#.utf8))
            let data = #"{"environment":"Sandbox","appAppleId":1234,"bundleId":"com.example","signedRenewalInfo":"\#(renewal)"}"#
            let jws = try signer.sign(payloadJSON: notificationJSON(signedDate: "1767225600000", data: data))
            await expectVerificationError("INVALID_PAYLOAD") { try await verifier.verifyNotification(jws) }
        }

        @Test func extremeButRepresentableNestedValuesVerify() async throws {
            let signer = trusted.signer()
            let transaction = try signer.sign(payloadJSON: Data(#"""
                {"transactionId":"1","originalTransactionId":"1","bundleId":"com.example","environment":"Sandbox",\#
                "productId":"p","price":9223372036854775807,"expiresDate":253402300799999,"purchaseDate":0,\#
                "signedDate":1767225600000,"currency":"ÜSDOLLARS"}
                """#.utf8))
            let data = #"{"environment":"Sandbox","appAppleId":1234,"bundleId":"com.example","signedTransactionInfo":"\#(transaction)"}"#
            let jws = try signer.sign(payloadJSON: notificationJSON(signedDate: "1767225600000", data: data))
            let verified = try await verifier.verifyNotification(jws)
            #expect(verified.transaction?.price == .max)
            #expect(verified.transaction?.expiresDate?.appStoreMilliseconds == 253_402_300_799_999)
        }

        @Test func repeatedNamesInThePayloadAreRefused() async throws {
            var json = notificationJSON(signedDate: "1767225600000")
            json.removeLast()  // the closing brace
            json.append(Data(#","notificationType":"TEST"}"#.utf8))
            let jws = try trusted.signer().sign(payloadJSON: json)
            let error = await expectVerificationError("INVALID_PAYLOAD") { try await verifier.verifyNotification(jws) }
            #expect(error?.message.contains("\"notificationType\"") == true)
        }

        @Test func repeatedNamesInTheHeaderAreRefused() async throws {
            let x5c = trusted.signer().x5c.map { "\"\($0)\"" }.joined(separator: ",")
            let header = Data(#"{"alg":"ES256","x5c":[\#(x5c)],"alg":"none"}"#.utf8)
            let jws = try trusted.signer().sign(payloadJSON: notificationJSON(signedDate: "1767225600000"), headerJSON: header)
            await expectVerificationError("INVALID_JWS") { try await verifier.verifyNotification(jws) }
        }
    }
}
