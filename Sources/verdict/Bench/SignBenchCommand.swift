import AppStoreServer
import ArgumentParser
import Crypto
import Foundation

/// `verdict bench sign`: offer signatures per second, V1 and JWS, each verified before it counts
/// (as the service does before it hands a signature out).
struct SignBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Create (and self-verify) promotional-offer signatures and print signatures per second."
    )

    @Option(help: "Signatures per run and format.")
    var count = 10_000

    func run() async throws {
        let key = P256.Signing.PrivateKey()
        let v1 = PromotionalOfferSignatureCreator(privateKey: key, keyId: "BENCHKEY01", bundleId: "com.example.bench")
        let jws = PromotionalOfferV2SignatureCreator(
            privateKey: key, keyId: "BENCHKEY01", issuerId: "57246542-96fe-1a63-e053-0824d011072a",
            bundleId: "com.example.bench")
        let token = UUID().uuidString
        let throughput = Throughput(unit: "signatures", count: count)
        _ = try await throughput.measure("V1 signature") { _ in
            _ = try v1.createSignature(productId: "com.example.bench.monthly", offerId: "promo50", appAccountToken: token)
        }
        _ = try await throughput.measure("JWS signature") { index in
            _ = try jws.createSignature(
                productId: "com.example.bench.monthly", offerIdentifier: "promo50", transactionId: String(index))
        }
    }
}
