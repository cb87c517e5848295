import AppStoreServer
import Crypto
import Foundation
import HTTPTypes
import Testing
@testable import VerdictService
import VerdictStorage
import VerdictTestSupport

/// The app scope of the decision, offer, attribute and consent endpoints, in-process with two
/// apps: a token of app A reaches A's records; B's record answers it exactly as an absent one;
/// subscriptions are found through their records (a token of both apps needs no header), and what
/// an appAccountToken keys, or an offer signature, acts for the token's only app or the one the
/// `Verdict-App` header names — 400 `APP_REQUIRED` without it for a token of both apps, 404 when it
/// names an app the token does not act for. Offers are signed with their app's own key.
@Suite struct AppScopeOfferRoutesTests {
    typealias Harness = TwoAppRouterHarness
    typealias Answer = RouterHarness.Answer
    /// The assertions every app-scope suite shares (absent as unknown, APP_REQUIRED, another app's header).

    /// Subscriptions of app A and of app B, and one no app stores.
    static let ofA = "8100000000000001"
    static let ofB = "8200000000000001"
    static let unknown = "8900000000000001"
    static let unknownToken = "00000000-0000-4000-8000-000000000000"

    // MARK: Decisions

    @Test(arguments: TestBackend.selected)
    func decisionsAreFoundThroughTheirApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let decisionA = try await Self.storeDecision(harness, Harness.a, Self.ofA)
            let decisionB = try await Self.storeDecision(harness, Harness.b, Self.ofB)
            let reference = try await harness.send(.get, "/v1/decisions/\(Self.unknownToken)", token: Harness.tokenA)
            #expect(reference.status == 404)

            let own = try await harness.send(.get, "/v1/decisions/\(decisionA)", token: Harness.tokenA)
            #expect(own.status == 200 && own.body.jsonObject["id"]?.stringValue == decisionA)
            let other = try await harness.send(.get, "/v1/decisions/\(decisionB)", token: Harness.tokenA)
            Harness.expectAbsent(other, like: reference, id: decisionB, unknown: Self.unknownToken)
            for token in [Harness.tokenB, Harness.tokenAB] {
                let found = try await harness.send(.get, "/v1/decisions/\(decisionB)", token: token)
                #expect(found.status == 200 && found.body.jsonObject["id"]?.stringValue == decisionB)
            }
            let named = try await harness.send(.get, "/v1/decisions/\(decisionB)", token: Harness.tokenAB, app: Harness.a)
            Harness.expectAbsent(named, like: reference, id: decisionB, unknown: Self.unknownToken)
            try await Harness.expectOtherAppRefused(harness, .get, "/v1/decisions/\(decisionA)")
        }
    }

    @Test(arguments: TestBackend.selected)
    func aSubscriptionsDecisionsAreListedThroughTheirApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let decisionA = try await Self.storeDecision(harness, Harness.a, Self.ofA)
            let decisionB = try await Self.storeDecision(harness, Harness.b, Self.ofB)
            func listed(_ answer: Answer) -> [String]? {
                guard answer.status == 200 else { return nil }
                return answer.body.jsonObject["decisions"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue }
            }
            for path in ["/v1/subscriptions/%@/decisions", "/v1/decisions?originalTransactionId=%@"] {
                func send(_ id: String, token: String, app: String? = nil) async throws -> Answer {
                    try await harness.send(.get, path.replacingOccurrences(of: "%@", with: id), token: token, app: app)
                }
                let reference = try await send(Self.unknown, token: Harness.tokenA)
                #expect(listed(reference) == [], "\(path): a subscription without decisions is the empty list")
                #expect(listed(try await send(Self.ofA, token: Harness.tokenA)) == [decisionA])
                Harness.expectAbsent(try await send(Self.ofB, token: Harness.tokenA), like: reference, id: Self.ofB, unknown: Self.unknown)
                #expect(listed(try await send(Self.ofB, token: Harness.tokenB)) == [decisionB])
                #expect(listed(try await send(Self.ofB, token: Harness.tokenAB)) == [decisionB], "no header: through the records")
                #expect(listed(try await send(Self.ofA, token: Harness.tokenAB)) == [decisionA])
                let named = try await send(Self.ofB, token: Harness.tokenAB, app: Harness.a)
                Harness.expectAbsent(named, like: reference, id: Self.ofB, unknown: Self.unknown)
                try await Harness.expectOtherAppRefused(harness, .get, path.replacingOccurrences(of: "%@", with: Self.ofA))
            }
        }
    }

    // MARK: Offers

    @Test(arguments: TestBackend.selected)
    func aPendingOfferIsSignedWithItsAppsOwnKey(_ backend: TestBackend) async throws {
        try await Harness.with(backend, signingKeys: true) { harness in
            try await Self.storeDecision(harness, Harness.a, Self.ofA, pending: true)
            try await Self.storeDecision(harness, Harness.b, Self.ofB, pending: true)
            for path in ["/v1/subscriptions/%@/offer", "/v1/customers/%@/offer"] {
                func send(_ id: String, token: String, app: String? = nil) async throws -> Answer {
                    try await harness.send(.get, path.replacingOccurrences(of: "%@", with: id), token: token, app: app)
                }
                let reference = try await send(Self.unknown, token: Harness.tokenA)
                #expect(reference.status == 200 && reference.body.jsonObject["offer"] == .null)
                try Self.expectSigned(try await send(Self.ofA, token: Harness.tokenA), offer: true, by: Harness.a, harness)
                Harness.expectAbsent(try await send(Self.ofB, token: Harness.tokenA), like: reference, id: Self.ofB, unknown: Self.unknown)
                try Self.expectSigned(try await send(Self.ofB, token: Harness.tokenB), offer: true, by: Harness.b, harness)
                try Self.expectSigned(try await send(Self.ofB, token: Harness.tokenAB), offer: true, by: Harness.b, harness)
                let named = try await send(Self.ofB, token: Harness.tokenAB, app: Harness.a)
                Harness.expectAbsent(named, like: reference, id: Self.ofB, unknown: Self.unknown)
                try await Harness.expectOtherAppRefused(harness, .get, path.replacingOccurrences(of: "%@", with: Self.ofA))
            }
        }
    }

    @Test(arguments: TestBackend.selected)
    func offerSignaturesAreTheRequestsAppsOwn(_ backend: TestBackend) async throws {
        try await Harness.with(backend, signingKeys: true) { harness in
            let path = "/v1/offers/signatures"
            let body = Data(#"{"productId":"com.lumen.pro.annual","offerId":"lumen-annual-40off"}"#.utf8)
            try Self.expectSigned(try await harness.send(.post, path, token: Harness.tokenA, body: body), by: Harness.a, harness)
            try Self.expectSigned(try await harness.send(.post, path, token: Harness.tokenB, body: body), by: Harness.b, harness)
            Harness.expectAppRequired(try await harness.send(.post, path, token: Harness.tokenAB, body: body))
            for app in [Harness.a, Harness.b] {
                try Self.expectSigned(try await harness.send(.post, path, token: Harness.tokenAB, app: app, body: body), by: app, harness)
            }
            try await Harness.expectOtherAppRefused(harness, .post, path, body: body)
        }
    }

    @Test(arguments: TestBackend.selected)
    func decideActsForTheSubscriptionsApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend, signingKeys: true) { harness in
            let customer = UUID().uuidString.lowercased()
            try await Self.storeSubscription(harness, Harness.b, Self.ofB, appAccountToken: customer)
            func decide(_ key: String, _ value: String, token: String, app: String? = nil) async throws -> Answer {
                let body = try JSONSerialization.data(withJSONObject: [key: value])
                return try await harness.send(.post, "/v1/offers/decide", token: token, app: app, body: body)
            }
            /// The answer is a decision stored by `bundleId` (and not by the other app).
            func expectDecided(_ answer: Answer, by bundleId: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                #expect(answer.status == 200, sourceLocation: sourceLocation)
                let id = try #require(answer.body.jsonObject["decisionId"]?.stringValue, sourceLocation: sourceLocation)
                let other = bundleId == Harness.a ? Harness.b : Harness.a
                #expect(try await harness.app(bundleId).repository.offerDecision(id: id) != nil, sourceLocation: sourceLocation)
                #expect(try await harness.app(other).repository.offerDecision(id: id) == nil, sourceLocation: sourceLocation)
            }
            // By originalTransactionId: the app that stores the subscription, else the request's one app.
            let reference = try await decide("originalTransactionId", Self.unknown, token: Harness.tokenA)
            #expect(reference.status == 404)
            Harness.expectAbsent(
                try await decide("originalTransactionId", Self.ofB, token: Harness.tokenA), like: reference, id: Self.ofB, unknown: Self.unknown)
            try await expectDecided(try await decide("originalTransactionId", Self.ofB, token: Harness.tokenB), by: Harness.b)
            try await expectDecided(try await decide("originalTransactionId", Self.ofB, token: Harness.tokenAB), by: Harness.b)
            Harness.expectAbsent(
                try await decide("originalTransactionId", Self.ofB, token: Harness.tokenAB, app: Harness.a), like: reference, id: Self.ofB,
                unknown: Self.unknown)
            Harness.expectAppRequired(try await decide("originalTransactionId", Self.unknown, token: Harness.tokenAB))
            // By transactionId: through the transaction.
            let byTransaction = try await decide("transactionId", Self.unknown, token: Harness.tokenA)
            #expect(byTransaction.status == 404)
            Harness.expectAbsent(try await decide("transactionId", Self.ofB, token: Harness.tokenA), like: byTransaction, id: Self.ofB, unknown: Self.unknown)
            try await expectDecided(try await decide("transactionId", Self.ofB, token: Harness.tokenAB), by: Harness.b)
            // By appAccountToken: the request's one app.
            let byToken = try await decide("appAccountToken", Self.unknownToken, token: Harness.tokenA)
            #expect(byToken.status == 404)
            Harness.expectAbsent(try await decide("appAccountToken", customer, token: Harness.tokenA), like: byToken, id: customer, unknown: Self.unknownToken)
            Harness.expectAppRequired(try await decide("appAccountToken", customer, token: Harness.tokenAB))
            try await expectDecided(try await decide("appAccountToken", customer, token: Harness.tokenAB, app: Harness.b), by: Harness.b)
            try await Harness.expectOtherAppRefused(
                harness, .post, "/v1/offers/decide", body: Data(#"{"originalTransactionId":"\#(Self.ofA)"}"#.utf8))
        }
    }

    // MARK: Attributes and consent

    @Test(arguments: TestBackend.selected)
    func attributesAreTheRequestsAppsOwn(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let customer = UUID().uuidString.lowercased()
            let path = "/v1/customers/\(customer)/attributes"
            func exports(_ answer: Answer) -> Int64? { answer.body.jsonObject[path: "attributes.exportsLast30Days"]?.integerValue }
            func body(_ exports: Int) -> Data { Data(#"{"exportsLast30Days":\#(exports)}"#.utf8) }
            #expect(try await harness.send(.put, path, token: Harness.tokenA, body: body(7)).status == 200)
            #expect(try await harness.app(Harness.b).repository.customerAttributes(appAccountToken: customer) == nil)
            let reference = try await harness.send(.get, "/v1/customers/\(Self.unknownToken)/attributes", token: Harness.tokenB)
            #expect(reference.status == 404)
            Harness.expectAbsent(try await harness.send(.get, path, token: Harness.tokenB), like: reference, id: customer, unknown: Self.unknownToken)
            #expect(exports(try await harness.send(.get, path, token: Harness.tokenA)) == 7)

            Harness.expectAppRequired(try await harness.send(.get, path, token: Harness.tokenAB))
            Harness.expectAppRequired(try await harness.send(.put, path, token: Harness.tokenAB, body: body(9)))
            #expect(try await harness.send(.put, path, token: Harness.tokenAB, app: Harness.b, body: body(9)).status == 200)
            #expect(exports(try await harness.send(.get, path, token: Harness.tokenAB, app: Harness.a)) == 7)
            #expect(exports(try await harness.send(.get, path, token: Harness.tokenAB, app: Harness.b)) == 9)
            try await Harness.expectOtherAppRefused(harness, .get, path)
            try await Harness.expectOtherAppRefused(harness, .put, path, body: body(1))
            #expect(exports(try await harness.send(.get, path, token: Harness.tokenB)) == 9, "the refused PUT changed nothing")
        }
    }

    @Test(arguments: TestBackend.selected)
    func aCustomersConsentIsTheRequestsAppsOwn(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let customer = UUID().uuidString.lowercased()
            let path = "/v1/customers/\(customer)/consent"
            #expect(try await harness.send(.put, path, token: Harness.tokenA, body: Self.consent(true)).status == 200)
            let reference = try await harness.send(.get, "/v1/customers/\(Self.unknownToken)/consent", token: Harness.tokenB)
            #expect(reference.status == 200 && Self.history(reference) == [])
            Harness.expectAbsent(try await harness.send(.get, path, token: Harness.tokenB), like: reference, id: customer, unknown: Self.unknownToken)
            #expect(Self.history(try await harness.send(.get, path, token: Harness.tokenA)) == [true])

            Harness.expectAppRequired(try await harness.send(.get, path, token: Harness.tokenAB))
            Harness.expectAppRequired(try await harness.send(.put, path, token: Harness.tokenAB, body: Self.consent(false)))
            #expect(Self.history(try await harness.send(.put, path, token: Harness.tokenAB, app: Harness.b, body: Self.consent(false))) == [false])
            #expect(Self.history(try await harness.send(.get, path, token: Harness.tokenAB, app: Harness.a)) == [true])
            try await Harness.expectOtherAppRefused(harness, .get, path)
            try await Harness.expectOtherAppRefused(harness, .put, path, body: Self.consent(true))
            #expect(Self.history(try await harness.send(.get, path, token: Harness.tokenB)) == [false], "the refused PUT changed nothing")
        }
    }

    @Test(arguments: TestBackend.selected)
    func aSubscriptionsConsentIsItsAppsOwn(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            try await Self.storeSubscription(harness, Harness.b, Self.ofB)
            let path = "/v1/subscriptions/\(Self.ofB)/consent"
            // A token of both apps needs no header: the subscription says whose ledger it is.
            #expect(Self.history(try await harness.send(.put, path, token: Harness.tokenAB, body: Self.consent(true))) == [true])
            #expect(Self.history(try await harness.send(.get, path, token: Harness.tokenB)) == [true])
            let reference = try await harness.send(.get, "/v1/subscriptions/\(Self.unknown)/consent", token: Harness.tokenA)
            #expect(reference.status == 200 && Self.history(reference) == [])
            Harness.expectAbsent(try await harness.send(.get, path, token: Harness.tokenA), like: reference, id: Self.ofB, unknown: Self.unknown)
            let named = try await harness.send(.get, path, token: Harness.tokenAB, app: Harness.a)
            Harness.expectAbsent(named, like: reference, id: Self.ofB, unknown: Self.unknown)

            // An answer before Apple's first notification goes to the request's one app, whose
            // ledger then holds the subscription.
            let early = "/v1/subscriptions/\(Self.unknown)/consent"
            Harness.expectAppRequired(try await harness.send(.put, early, token: Harness.tokenAB, body: Self.consent(false)))
            #expect(Self.history(try await harness.send(.put, early, token: Harness.tokenAB, app: Harness.a, body: Self.consent(false))) == [false])
            #expect(Self.history(try await harness.send(.get, early, token: Harness.tokenAB)) == [false])
            #expect(Self.history(try await harness.send(.get, early, token: Harness.tokenB)) == [])
            try await Harness.expectOtherAppRefused(harness, .get, early)
            try await Harness.expectOtherAppRefused(harness, .put, early, body: Self.consent(true))
            #expect(Self.history(try await harness.send(.get, early, token: Harness.tokenA)) == [false], "the refused PUT changed nothing")
        }
    }

    // MARK: Helpers

    /// Stores a decision of app `bundleId` for `originalTransactionId` (`pending`: a promotional
    /// offer, made and unexpired) and returns its id.
    @discardableResult
    static func storeDecision(_ harness: Harness, _ bundleId: String, _ originalTransactionId: String, pending: Bool = false) async throws -> String {
        let now = Date().appStoreMilliseconds
        let record = OfferDecisionRecord(
            id: UUID().uuidString.lowercased(), originalTransactionId: originalTransactionId, notificationUUID: nil,
            trigger: "AUTO_RENEW_DISABLED", bundleHash: "sha256:abc", ruleId: "rule-of-\(bundleId)", ruleLine: 7,
            offerId: pending ? "lumen-annual-40off" : nil, offerType: pending ? "PROMOTIONAL" : nil,
            productId: pending ? "com.lumen.pro.annual" : nil, heldOut: false, decidedAt: now - 60_000,
            expiresAt: pending ? now + 86_400_000 : nil, json: #"{"explanation":"decided by \#(bundleId)"}"#)
        _ = try await harness.app(bundleId).repository.insertOfferDecision(record, followUp: nil, caps: [])
        return record.id
    }

    /// Stores an annual subscription of app `bundleId` (its customer record and first purchase)
    /// as a notification would, so that it can be decided on.
    static func storeSubscription(
        _ harness: Harness, _ bundleId: String, _ originalTransactionId: String, appAccountToken: String? = nil
    ) async throws {
        let now = Date()
        let purchase = JWSTransactionDecodedPayload(
            originalTransactionId: originalTransactionId, transactionId: originalTransactionId, bundleId: bundleId,
            productId: "com.lumen.pro.annual", purchaseDate: now.addingTimeInterval(-86_400),
            expiresDate: now.addingTimeInterval(364 * 86_400), type: .autoRenewable,
            appAccountToken: appAccountToken.flatMap(UUID.init(uuidString:)), signedDate: now, environment: .sandbox,
            currency: "USD", price: 59_990)
        let repository = try harness.app(bundleId).repository
        try await repository.importCustomers([CustomerRecord(
            originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: nil,
            environment: "Sandbox", firstSeenAt: now.appStoreMilliseconds, historyRevision: nil, historySyncedAt: nil)])
        try await repository.importTransactions([try #require(TransactionRecord(purchase, json: nil))])
    }

    /// The answer carries an offer signed with app `bundleId`'s own key (its key id and bundle id,
    /// a JWS that verifies with its key and not with the other app's): the top-level signatures of
    /// `POST /v1/offers/signatures`, or the `offer`'s of a pending or decided offer.
    static func expectSigned(
        _ answer: Answer, offer: Bool = false, by bundleId: String, _ harness: Harness, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(answer.status == 200, sourceLocation: sourceLocation)
        let object = offer ? try #require(answer.body.jsonObject["offer"]?.objectValue, sourceLocation: sourceLocation) : answer.body.jsonObject
        #expect(object[path: "signature.keyIdentifier"]?.stringValue == Harness.keyId(bundleId), sourceLocation: sourceLocation)
        let jws = try #require(object["jws"]?.stringValue, sourceLocation: sourceLocation)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3, sourceLocation: sourceLocation)
        let header = JSONValue.parse(try OfferSignatureTests.base64URL(parts[0]))?.objectValue
        let claims = JSONValue.parse(try OfferSignatureTests.base64URL(parts[1]))?.objectValue
        #expect(header?["kid"]?.stringValue == Harness.keyId(bundleId), sourceLocation: sourceLocation)
        #expect(claims?["bid"]?.stringValue == bundleId, sourceLocation: sourceLocation)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try OfferSignatureTests.base64URL(parts[2]))
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        let own = try #require(harness.signingKeys[bundleId], sourceLocation: sourceLocation)
        let other = try #require(harness.signingKeys[bundleId == Harness.a ? Harness.b : Harness.a], sourceLocation: sourceLocation)
        #expect(own.publicKey.isValidSignature(signature, for: signed), sourceLocation: sourceLocation)
        #expect(!other.publicKey.isValidSignature(signature, for: signed), "verifies with the other app's key", sourceLocation: sourceLocation)
    }

    static func consent(_ consented: Bool) -> Data { Data(#"{"consented":\#(consented),"source":"settings-screen"}"#.utf8) }

    /// The answers of a consent ledger, newest first (nil: not a ledger).
    static func history(_ answer: Answer) -> [Bool]? {
        guard answer.status == 200 else { return nil }
        return answer.body.jsonObject["history"]?.arrayValue?.compactMap { $0.objectValue?["consented"]?.boolValue }
    }
}
