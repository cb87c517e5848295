import Foundation
import RuleEngine
import Testing

@testable import VerdictService

/// Which product a decided offer is for: the subscription's own when the catalog configures the
/// offer for it, else the offer's configured product (a win-back offer for another plan).
@Suite struct OfferProductTests {
    static let catalog = OfferCatalog(offers: try! JSONDecoder().decode([OfferCatalog.Offer].self, from: Data("""
        [{"id": "winback-annual", "type": "WIN_BACK", "productIds": ["annual"], "subscriptionGroup": "g", "line": 1},
         {"id": "promo-both", "type": "PROMOTIONAL", "productIds": ["monthly", "annual"], "subscriptionGroup": "g", "line": 2}]
        """.utf8)), currencies: ["USD"])

    static func choice(_ id: String, _ type: String) throws -> Decision.OfferChoice {
        try JSONDecoder().decode(Decision.OfferChoice.self, from: Data(#"{"id":"\#(id)","type":"\#(type)"}"#.utf8))
    }

    @Test func theSubscriptionsProductWhenConfiguredElseTheOffers() throws {
        #expect(OfferDecider.product(for: try Self.choice("promo-both", "PROMOTIONAL"), in: Self.catalog, subscriptionProduct: "monthly") == "monthly")
        #expect(OfferDecider.product(for: try Self.choice("winback-annual", "WIN_BACK"), in: Self.catalog, subscriptionProduct: "monthly") == "annual")
        #expect(OfferDecider.product(for: nil, in: Self.catalog, subscriptionProduct: "monthly") == "monthly")
    }
}
