import AppStoreServer
import Crypto
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// `POST /v1/offers/signatures` over real HTTP: signatures that verify independently of Verdict's
/// own signing code (V1 over the exact U+2063 payload bytes, JWS header, claims and ES256),
/// catalog enforcement, fresh nonces, and clear errors.
@Suite struct OfferSignatureTests {
    static let annual = "com.lumen.pro.annual"

    static func body(_ fields: [String: String]) -> Data {
        try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }

    @Test(arguments: TestBackend.selected)
    func v1SignatureVerifiesOverTheExactPayloadBytes(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let token = UUID().uuidString // uppercase on purpose: Apple signs it lowercased
            let before = Date().appStoreMilliseconds
            let (status, data) = try await harness.request(.POST, "/v1/offers/signatures", body: Self.body([
                "productId": Self.annual, "offerId": "lumen-annual-40off", "appAccountToken": token, "format": "v1",
            ]))
            #expect(status == 200)
            let object = data.jsonObject
            #expect(object["type"]?.stringValue == "PROMOTIONAL")
            #expect(object["jws"] == nil)
            let signature = try #require(object["signature"]?.objectValue)
            let keyId = try #require(signature["keyIdentifier"]?.stringValue)
            let nonce = try #require(signature["nonce"]?.stringValue)
            let timestamp = try #require(signature["timestamp"]?.integerValue)
            let encoded = try #require(signature["signature"]?.stringValue)
            #expect(keyId == harness.store.issuedKey.keyId)
            #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
            #expect(timestamp >= before && timestamp <= Date().appStoreMilliseconds)

            // Built here, byte by byte, from Apple's documented order: bundle, key, product, offer,
            // lowercase appAccountToken, lowercase nonce, timestamp — joined by E2 81 A3.
            var payload = Data()
            let separator = Data([0xE2, 0x81, 0xA3])
            let fields = [ServiceHarness.bundleId, keyId, Self.annual, "lumen-annual-40off", token.lowercased(), nonce, String(timestamp)]
            for (index, field) in fields.enumerated() {
                if index > 0 { payload.append(separator) }
                payload.append(Data(field.utf8))
            }
            let der = try #require(Data(base64Encoded: encoded))
            let ecdsa = try P256.Signing.ECDSASignature(derRepresentation: der)
            #expect(harness.store.issuedKey.publicKey.isValidSignature(ecdsa, for: SHA256.hash(data: payload)))
            var tampered = payload
            tampered[tampered.count - 1] ^= 1
            #expect(!harness.store.issuedKey.publicKey.isValidSignature(ecdsa, for: SHA256.hash(data: tampered)))
        }
    }

    @Test(arguments: TestBackend.selected)
    func jwsHeaderClaimsAndSignatureVerify(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let before = Int64(Date().timeIntervalSince1970)
            let (status, data) = try await harness.request(.POST, "/v1/offers/signatures", body: Self.body([
                "productId": Self.annual, "offerId": "lumen-annual-20off", "transactionId": "2000000123456789", "format": "jws",
            ]))
            #expect(status == 200)
            #expect(data.jsonObject["signature"] == nil)
            let jws = try #require(data.jsonObject["jws"]?.stringValue)
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 3)
            let header = try #require(JSONValue.parse(try Self.base64URL(parts[0]))?.objectValue)
            #expect(header == ["alg": .string("ES256"), "kid": .string(harness.store.issuedKey.keyId), "typ": .string("JWT")])
            let claims = try #require(JSONValue.parse(try Self.base64URL(parts[1]))?.objectValue)
            #expect(claims["iss"]?.stringValue == harness.store.issuedKey.issuerId)
            #expect(claims["bid"]?.stringValue == ServiceHarness.bundleId)
            #expect(claims["aud"]?.stringValue == "promotional-offer")
            #expect(claims["productId"]?.stringValue == Self.annual)
            #expect(claims["offerIdentifier"]?.stringValue == "lumen-annual-20off")
            #expect(claims["transactionId"]?.stringValue == "2000000123456789")
            #expect(claims["exp"] == nil)
            let iat = try #require(claims["iat"]?.integerValue)
            #expect(iat >= before && iat <= Int64(Date().timeIntervalSince1970) + 1)
            let nonce = try #require(claims["nonce"]?.stringValue)
            #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
            // ES256: raw r‖s over "header.payload".
            let raw = try Self.base64URL(parts[2])
            #expect(raw.count == 64)
            let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: raw)
            #expect(harness.store.issuedKey.publicKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))
        }
    }

    @Test(arguments: TestBackend.selected)
    func everySignatureHasAFreshNonce(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            var nonces: [String] = []
            for _ in 0..<10 {
                let (status, data) = try await harness.request(.POST, "/v1/offers/signatures", body: Self.body([
                    "productId": "com.lumen.pro.monthly", "offerId": "lumen-pro-first-month-099",
                ]))
                #expect(status == 200)
                let object = data.jsonObject
                if let nonce = object["signature"]?.objectValue?["nonce"]?.stringValue { nonces.append(nonce) }
                if let jws = object["jws"]?.stringValue,
                   let claims = try? Self.base64URL(String(jws.split(separator: ".")[1])),
                   let nonce = JSONValue.parse(claims)?.objectValue?["nonce"]?.stringValue {
                    nonces.append(nonce)
                }
            }
            #expect(nonces.count == 20)
            #expect(Set(nonces).count == 20)
            // Each is reserved in the database: reserving it again is refused.
            let now = Date().appStoreMilliseconds
            for nonce in nonces.prefix(3) {
                #expect(try await harness.service.apps.first.repository.reserveOfferNonce(nonce, issuedAt: now, expiresAt: now + 1_000) == false)
            }
        }
    }

    @Test func catalogIsEnforced() async throws {
        try await RouterHarness.with { harness in
            let cases: [([String: String], Int, String)] = [
                (["productId": Self.annual, "offerId": "no-such-offer"], 422, "OFFER_NOT_IN_CATALOG"),
                (["productId": "com.lumen.pro.monthly", "offerId": "lumen-annual-40off"], 422, "PRODUCT_MISMATCH"),
                (["productId": Self.annual, "offerId": "lumen-winback-annual-50off"], 422, "NOT_A_PROMOTIONAL_OFFER"),
                (["offerId": "lumen-annual-40off"], 400, "MISSING_FIELD"),
                (["productId": Self.annual, "offerId": "lumen-annual-40off", "appAccountToken": "not-a-uuid"], 400, "INVALID_FIELD"),
                (["productId": Self.annual, "offerId": "lumen-annual-40off", "format": "v3"], 400, "INVALID_FIELD"),
            ]
            for (fields, expectedStatus, code) in cases {
                let (status, data) = try await harness.request(.POST, "/v1/offers/signatures", body: Self.body(fields))
                #expect(status == expectedStatus, "\(fields)")
                #expect(data.jsonObject["error"]?.objectValue?["code"]?.stringValue == code, "\(fields)")
            }
            let malformed = try await harness.request(.POST, "/v1/offers/signatures", body: Data("[1,".utf8))
            #expect(malformed.status == 400)
            let anonymous = try await harness.request(
                .POST, "/v1/offers/signatures", body: Self.body(["productId": Self.annual, "offerId": "lumen-annual-40off"]), token: nil)
            #expect(anonymous.status == 401)
        }
    }

    @Test func withoutAKeySigningIsUnavailableAndNamesNoSecret() async throws {
        try await RouterHarness.with { harness in
            let (status, data) = try await harness.request(.POST, "/v1/offers/signatures", body: Self.body([
                "productId": Self.annual, "offerId": "lumen-annual-40off",
            ]))
            #expect(status == 503)
            #expect(data.jsonObject["error"]?.objectValue?["code"]?.stringValue == "SIGNING_UNAVAILABLE")
            #expect(!String(decoding: data, as: UTF8.self).contains(ServiceHarness.token))
        }
    }

    static func base64URL(_ text: String) throws -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw ServiceTestError("not Base64URL: \(text)") }
        return data
    }
}
