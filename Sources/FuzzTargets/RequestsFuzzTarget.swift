import AppStoreServer
import Crypto
import Foundation
import RuleEngine
import VerdictRequests

/// The JSON bodies of Verdict's API as a fuzz target: the same `decoded(from:)` and checks the
/// service runs on a request body once its content type and size are accepted, and — for an
/// offer-signature request that passes them — the signing itself.
///
/// The first byte of an input picks the body the rest is:
///
/// | first byte mod 5 | the rest of the input |
/// |---|---|
/// | 0 | `PUT /v1/transactions/{id}/facts` (the app's facts about a purchase) |
/// | 1 | `PUT …/consent` |
/// | 2 | `PUT /v1/customers/{token}/attributes`, typed against a fixed bundle's `attributes:` |
/// | 3 | `POST /v1/offers/signatures`: checked, looked up in a fixed catalog, then signed (V1 and JWS) and verified |
/// | 4 | `POST /v1/offers/decide`: its ids, trigger and format |
///
/// Every input must end in a ``RequestBodyError`` or an accepted body. A trap is a finding, and so
/// is a signature for an accepted request that does not verify or does not name what was asked.
public struct RequestsFuzzTarget: Sendable {
    /// What one input came to (for replays and tests; the fuzzer ignores it).
    public enum Outcome: Equatable, Sendable {
        case refused(code: String)
        case accepted
        /// An offer-signature request: signed and verified; `inCatalog` when the service would sign it too.
        case signed(inCatalog: Bool)
    }

    static let bundleId = "com.example"
    static let keyId = "FUZZKEY123"
    static let issuerId = "5f4c6d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
    /// 2026-01-02, the signatures' time.
    static let now = Date(timeIntervalSince1970: 1_767_312_000)

    /// A bundle declaring one attribute of every type the rules language has, with the rules
    /// target's catalog (a promotional offer, a win-back offer and a product).
    static let bundleFiles: [BundleSourceFile] = [
        .init(path: "catalog.yaml", text: RulesFuzzTarget.catalog),
        .init(path: "f.rules.yaml", text: """
            schema: 1
            attributes:
              plan: string
              exportsLast30Days: int?
              beta: bool?
              lifetimeValue: money?
              sinceLastOpen: duration?
              lastSupportContact: timestamp?
              features: list<string>?
              seats: list<int>?
            offers:
              appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]
              rules:
                - {id: r, when: ['true'], offer: {id: promo, type: PROMOTIONAL}}
            """),
    ]

    let schema: FactSchema
    let catalog: OfferCatalog
    let key: P256.Signing.PrivateKey

    public init() {
        let checked = RuleBundleChecker.check(Self.bundleFiles)
        guard let bundle = checked.bundle else { fatalError("the requests target's bundle does not check: \(checked.diagnostics)") }
        schema = bundle.schema
        catalog = bundle.catalog
        // A fixed key: the target's runs do not depend on a random one.
        key = try! P256.Signing.PrivateKey(rawRepresentation: Data(repeating: 7, count: 32))
    }

    /// Runs one input through the body its first byte names.
    public func run(_ input: Data) -> Outcome {
        guard let mode = input.first else { return .refused(code: "EMPTY") }
        let body = Data(input.dropFirst())
        do {
            switch mode % 5 {
            case 0:
                _ = try TransactionFactsRequest.decoded(from: body)
            case 1:
                _ = try ConsentRequest.decoded(from: body)
            case 2:
                try CustomerAttributesRequest.decoded(from: body).check(against: schema)
            case 3:
                let checked = try OfferSignatureRequest.decoded(from: body).checked()
                let inCatalog = (try? checked.check(against: catalog)) != nil
                sign(checked)
                return .signed(inCatalog: inCatalog)
            default:
                let request = try OfferDecideRequest.decoded(from: body)
                _ = try request.checkedTrigger()
                _ = try OfferSignatureFormat.requested(request.format)
            }
            return .accepted
        } catch {
            return .refused(code: error.code)
        }
    }

    /// Signs what the request asks for with the creators the service's signer uses (each verifies
    /// its signature with the public key before returning it), and checks that the JWS names the
    /// request's offer; traps when any of it fails (the checks accepted the request, so signing
    /// must succeed).
    func sign(_ request: OfferSignatureRequest.Checked) {
        let token = request.appAccountToken?.uuidString.lowercased() ?? ""
        let nonce = UUID(uuidString: "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")!
        do {
            if request.format != .jws {
                _ = try PromotionalOfferSignatureCreator(privateKey: key, keyId: Self.keyId, bundleId: Self.bundleId).createSignature(
                    productId: request.productId, offerId: request.offerId, appAccountToken: token, nonce: nonce,
                    timestamp: Self.now.appStoreMilliseconds)
            }
            if request.format != .v1 {
                let creator = PromotionalOfferV2SignatureCreator(
                    privateKey: key, keyId: Self.keyId, issuerId: Self.issuerId, bundleId: Self.bundleId, clock: { Self.now })
                let jws = try creator.createSignature(
                    productId: request.productId, offerIdentifier: request.offerId, transactionId: request.transactionId, nonce: nonce)
                let fields = try PromotionalOfferV2SignatureVerifier(
                    publicKey: key.publicKey, keyId: Self.keyId, issuerId: Self.issuerId, bundleId: Self.bundleId
                ).verify(jws).fields
                guard fields.productId == request.productId, fields.offerIdentifier == request.offerId,
                      fields.transactionId == request.transactionId
                else { fatalError("the JWS names another offer than the request") }
            }
        } catch {
            fatalError("an accepted offer-signature request could not be signed and verified: \(error)")
        }
    }
}
