import AppStoreServer
import ArgumentParser
import Foundation

/// `verdict sign promotional-offer`: a V1 promotional-offer signature or a promotional-offer JWS.
struct PromotionalOfferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotional-offer",
        abstract: "Sign a promotional offer (V1 signature or JWS) and print it as JSON.",
        discussion: """
            v1 prints {"keyIdentifier","nonce","timestamp","signature"} for \
            Product.SubscriptionOffer.Signature (Base64-decode the signature before passing it as Data). \
            jws prints {"jws"} for Product.PurchaseOption.promotionalOffer(_:compactJWS:); it needs --issuer-id.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case v1, jws }

    @Option(help: "The In-App Purchase key file (.p8, PKCS#8 PEM) from App Store Connect.")
    var key: String
    @Option(help: "The key's identifier.")
    var keyId: String
    @Option(help: "The app's bundle identifier.")
    var bundleId: String
    @Option(help: "The subscription's product identifier.")
    var product: String
    @Option(help: "The promotional offer's identifier.")
    var offer: String
    @Option(help: "The customer's appAccountToken (V1; lowercased in the signed payload).")
    var appAccountToken: String?
    @Option(help: "Signature format: v1 or jws.")
    var format: Format = .v1
    @Option(help: "The issuer ID (required for jws).")
    var issuerId: String?
    @Option(help: "Any transaction of the customer, or their appTransactionId (jws; recommended).")
    var transactionId: String?

    func validate() throws {
        if format == .jws && issuerId == nil { throw ValidationError("--format jws needs --issuer-id.") }
        if let token = appAccountToken, !token.isEmpty, UUID(uuidString: token) == nil {
            throw ValidationError("--app-account-token must be a UUID.")
        }
    }

    func run() async throws {
        guard let pem = try? String(contentsOfFile: key, encoding: .utf8) else {
            throw ValidationError("Cannot read the key file \(key).")
        }
        let privateKey = try SigningKey.load(pem: pem)
        let output: [String: Any]
        switch format {
        case .v1:
            let creator = PromotionalOfferSignatureCreator(privateKey: privateKey, keyId: keyId, bundleId: bundleId)
            let signature = try creator.createSignature(
                productId: product, offerId: offer, appAccountToken: appAccountToken ?? "")
            output = [
                "keyIdentifier": signature.keyIdentifier,
                "nonce": signature.nonce,
                "timestamp": signature.timestamp,
                "signature": signature.signature,
            ]
        case .jws:
            let creator = PromotionalOfferV2SignatureCreator(
                privateKey: privateKey, keyId: keyId, issuerId: issuerId ?? "", bundleId: bundleId)
            output = ["jws": try creator.createSignature(productId: product, offerIdentifier: offer, transactionId: transactionId)]
        }
        let json = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys, .withoutEscapingSlashes])
        FileHandle.standardOutput.write(json + Data("\n".utf8))
    }
}
