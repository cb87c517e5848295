import Foundation
import FuzzTargets
import HTTPTypes
import Testing

/// The requests fuzz target's committed inputs, replayed: every seed in `Fuzz/requests/corpus` (and
/// every regression in `Fuzz/requests/crashes`, once there is one) runs to an outcome, and the
/// service answers each one as the target read it — the same refusal code, or no 400 for a body
/// the target accepted — so the target fuzzes the service's own reading of its bodies.
@Suite struct RequestsFuzzCorpusTests {
    /// The endpoint of each mode (the target's first byte mod 5).
    static let endpoints: [(HTTPRequest.Method, String)] = [
        (.put, "/v1/transactions/2000000000000001/facts"),
        (.put, "/v1/customers/5f4c6d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f/consent"),
        (.put, "/v1/customers/5f4c6d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f/attributes"),
        (.post, "/v1/offers/signatures"),
        (.post, "/v1/offers/decide"),
    ]

    @Test func everySeedRunsAndEveryModeHasAcceptedAndRefusedSeeds() throws {
        let target = RequestsFuzzTarget()
        var accepted = Set<Int>(), refused = Set<Int>()
        for (name, input) in try FuzzCorpus.inputs("requests", "corpus") {
            let mode = Int(try #require(input.first)) % 5
            switch target.run(input) {
            case .refused: refused.insert(mode)
            case .accepted, .signed: accepted.insert(mode)
            }
            _ = name
        }
        #expect(accepted == Set(0..<5) && refused == Set(0..<5), "accepted \(accepted.sorted()), refused \(refused.sorted())")
        #expect(target.run(Data([3]) + Data(#"{"productId":"com.example.pro.annual","offerId":"promo"}"#.utf8)) == .signed(inCatalog: true))
        #expect(target.run(Data([3]) + Data(#"{"productId":"p","offerId":"o","format":"jws"}"#.utf8)) == .signed(inCatalog: false))
    }

    @Test func theServiceAnswersEachInputAsTheTargetReadsIt() async throws {
        let target = RequestsFuzzTarget()
        let inputs = try FuzzCorpus.inputs("requests", "corpus") + FuzzCorpus.inputs("requests", "crashes")
        try await RouterHarness.with { harness in
            for (name, input) in inputs {
                guard let mode = input.first else { continue }
                let (method, path) = Self.endpoints[Int(mode) % 5]
                let answer = try await harness.send(method, path, body: Data(input.dropFirst()))
                let code = answer.body.jsonObject[path: "error.code"]?.stringValue
                switch target.run(input) {
                case .refused("ATTRIBUTE_MISMATCH"):
                    // Typed against the target's bundle; the service types them against the shipped one.
                    #expect(answer.status == 422 || answer.status == 200, "\(name): \(answer.status)")
                case .refused(let expected):
                    #expect(code == expected, "\(name): the service answered \(answer.status) \(code ?? "-")")
                case .accepted, .signed:
                    #expect(answer.status != 400, "\(name): the service refused \(code ?? "-")")
                }
            }
        }
    }
}
