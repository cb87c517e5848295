import AppStoreServer
import Foundation
import Testing

@testable import RuleEngine

/// A decision's offer is typed (``OfferType``) but recorded as it always was: `"type"` holds the
/// rule name (`PROMOTIONAL`, `WIN_BACK`), so decisions stored before it was typed still read, by
/// `JSONDecoder` and by the replay's own reader, and encode to the same bytes.
@Suite("Decision: the offer's type in stored records")
struct OfferChoiceCodingTests {
    /// A held-out win-back decision with a promotional shadow match, as stored before the offer's
    /// type was an enumeration (keys sorted, as the service writes them).
    static let stored = #"{"buckets":[{"bucket":120,"purpose":"holdout","salt":"h","threshold":500,"unit":"90000003"}],"#
        + #""bundle":"sha256:abc","corrections":[],"counterfactual":{"expiresAfter":"1d12h","id":"winback-b","type":"WIN_BACK"},"#
        + #""counterfactualRule":{"file":"offers.rules.yaml","id":"winback","line":7},"errors":[],"heldOut":true,"limits":[],"#
        + #""now":"2026-12-15T12:00:00Z","section":"offers","shadowMatches":[{"corrections":[],"offer":{"id":"promo-40","type":"PROMOTIONAL"},"#
        + #""rule":{"file":"offers.rules.yaml","id":"shadow-promo","line":12}}],"trace":[]}"#

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    @Test func aDecisionStoredBeforeReadsWithTypedOffers() throws {
        let decision = try JSONDecoder().decode(Decision.self, from: Data(Self.stored.utf8))
        #expect(decision.counterfactual == Decision.OfferChoice(
            id: "winback-b", type: .winBackOffer, expiresAfter: DecisionDuration(millis: 36 * 3_600_000)))
        #expect(decision.shadowMatches.first?.offer == Decision.OfferChoice(id: "promo-40", type: .promotionalOffer))
        #expect(decision.counterfactual?.description == "winback-b (WIN_BACK)")
        // The replay's reader (not Foundation's decoder) reads it the same.
        #expect(try DecisionRecordJSON(#"{"facts": {}, "decision": \#(Self.stored)}"#).decision == decision)
    }

    @Test func encodingWritesTheSameRecord() throws {
        let decision = try JSONDecoder().decode(Decision.self, from: Data(Self.stored.utf8))
        let encoded = String(decoding: try Self.encoder().encode(decision), as: UTF8.self)
        #expect(encoded == Self.stored)
        let offer = String(decoding: try Self.encoder().encode(Decision.OfferChoice(id: "p", type: .promotionalOffer)), as: UTF8.self)
        #expect(offer == #"{"id":"p","type":"PROMOTIONAL"}"#)
    }

    @Test func aTypeNoRuleNamesIsRefused() {
        for type in ["2", "promotional", "UNRECOGNIZED", ""] {
            #expect(throws: DecodingError.self, "\(type)") {
                try JSONDecoder().decode(Decision.OfferChoice.self, from: Data(#"{"id":"p","type":"\#(type)"}"#.utf8))
            }
        }
    }
}
