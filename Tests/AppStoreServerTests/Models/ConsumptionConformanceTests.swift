import AppStoreServer
import Testing

/// Apple's V2 consumption body rules as corrections: each rule, their order and combinations, and
/// that a valid answer is left alone.
@Suite("Consumption conformance")
struct ConsumptionConformanceTests {
    private func conform(
        _ preference: String? = nil, _ percentage: Int64? = nil, _ delivery: String? = "DELIVERED",
        _ type: ProductType? = .consumable
    ) -> (ConsumptionValues, [ConsumptionCorrection]) {
        ConsumptionValues.conform(
            ConsumptionValues(refundPreference: preference, consumptionPercentage: percentage, deliveryStatus: delivery,
                              sampleContentProvided: false),
            productType: type)
    }

    @Test("a percentage outside 0…100000 is clamped",
          arguments: zip([-5, 100_001, .min, .max] as [Int64], [0, 100_000, 0, 100_000] as [Int64]))
    func clamped(_ proposed: Int64, _ expected: Int64) {
        let (values, corrections) = conform("GRANT_FULL", proposed)
        #expect(values.consumptionPercentage == expected)
        #expect(corrections.count == 1)
        #expect(corrections.first?.field == "consumptionPercentage")
        #expect(corrections.first?.from == String(proposed))
        #expect(corrections.first?.to == String(expected))
        #expect(values.refundPreference == "GRANT_FULL")
    }

    @Test("an auto-renewable subscription gets no percentage")
    func autoRenewableOmitsPercentage() {
        let (values, corrections) = conform("DECLINE", 40_000, "DELIVERED", .autoRenewable)
        #expect(values.consumptionPercentage == nil)
        #expect(values.refundPreference == "DECLINE")
        #expect(corrections == [ConsumptionCorrection(
            field: "consumptionPercentage", from: "40000", to: nil,
            reason: "consumptionPercentage must be omitted for an auto-renewable subscription (Apple computes it)")])
    }

    @Test("undelivered means a percentage of 0")
    func undeliveredZeroes() {
        let (values, corrections) = conform("GRANT_FULL", 30_000, "UNDELIVERED_SERVER_OUTAGE")
        #expect(values.consumptionPercentage == 0)
        #expect(corrections.map(\.field) == ["consumptionPercentage"])
        #expect(corrections.first?.from == "30000")
        #expect(corrections.first?.to == "0")
        #expect(corrections.first?.reason.contains("UNDELIVERED_SERVER_OUTAGE") == true)
    }

    @Test("an unknown delivery status decides nothing")
    func unknownDeliveryKeepsPercentage() {
        let (values, corrections) = conform("GRANT_FULL", 30_000, nil)
        #expect(values.consumptionPercentage == 30_000)
        #expect(corrections.isEmpty)
    }

    @Test("GRANT_PRORATED without a usable percentage is dropped for other products",
          arguments: [ProductType.consumable, .nonConsumable, .nonRenewable, ProductType(rawValue: "Future Type")],
          [nil, 0, 100_000] as [Int64?])
    func proratedDropped(_ type: ProductType, _ percentage: Int64?) {
        let (values, corrections) = conform("GRANT_PRORATED", percentage, "DELIVERED", type)
        #expect(values.refundPreference == nil)
        #expect(values.consumptionPercentage == percentage)
        #expect(corrections.count == 1)
        #expect(corrections.first?.field == "refundPreference")
        #expect(corrections.first?.from == "GRANT_PRORATED")
        #expect(corrections.first?.to == nil)
    }

    @Test("GRANT_PRORATED is kept for an auto-renewable subscription and when the product type is unknown")
    func proratedKept() {
        #expect(conform("GRANT_PRORATED", nil, "DELIVERED", .autoRenewable).1.isEmpty)
        #expect(conform("GRANT_PRORATED", nil, "DELIVERED", nil).1.isEmpty)
        #expect(conform("GRANT_PRORATED", 1, "DELIVERED").1.isEmpty)
        #expect(conform("GRANT_PRORATED", 99_999, "DELIVERED").1.isEmpty)
    }

    @Test("rules apply in order: clamp, then auto-renewable")
    func clampThenAutoRenewable() {
        let (values, corrections) = conform("GRANT_PRORATED", 250_000, "DELIVERED", .autoRenewable)
        #expect(values.consumptionPercentage == nil)
        #expect(values.refundPreference == "GRANT_PRORATED")
        #expect(corrections.map(\.from) == ["250000", "100000"])
        #expect(corrections.map(\.to) == ["100000", nil])
    }

    @Test("rules apply in order: undelivered zeroes, then GRANT_PRORATED is dropped")
    func undeliveredThenProrated() {
        let (values, corrections) = conform("GRANT_PRORATED", 50_000, "UNDELIVERED_WRONG_ITEM", .nonConsumable)
        #expect(values.consumptionPercentage == 0)
        #expect(values.refundPreference == nil)
        #expect(corrections.map(\.field) == ["consumptionPercentage", "refundPreference"])
        #expect(corrections.last?.reason.contains("(it is 0)") == true)
    }

    @Test("clamping a negative percentage, then dropping GRANT_PRORATED")
    func clampThenProrated() {
        let (values, corrections) = conform("GRANT_PRORATED", -5, "UNDELIVERED_OTHER", .consumable)
        #expect(values == ConsumptionValues(refundPreference: nil, consumptionPercentage: 0,
                                            deliveryStatus: "UNDELIVERED_OTHER", sampleContentProvided: false))
        #expect(corrections.map(\.field) == ["consumptionPercentage", "refundPreference"])
    }

    @Test("a valid answer yields no corrections", arguments: [
        ConsumptionValues(),
        ConsumptionValues(refundPreference: "GRANT_FULL", consumptionPercentage: 50_000, deliveryStatus: "DELIVERED"),
        ConsumptionValues(refundPreference: "GRANT_PRORATED", consumptionPercentage: 25_000, deliveryStatus: "DELIVERED"),
        ConsumptionValues(refundPreference: "DECLINE", consumptionPercentage: 0, deliveryStatus: "UNDELIVERED_QUALITY_ISSUE"),
        ConsumptionValues(refundPreference: "GRANT_FULL", consumptionPercentage: 100_000, deliveryStatus: nil),
    ])
    func validUnchanged(_ proposed: ConsumptionValues) {
        let (values, corrections) = ConsumptionValues.conform(proposed, productType: .consumable)
        #expect(values == proposed)
        #expect(corrections.isEmpty)
    }

    @Test("a ConsumptionRequest is conformed through the same rules")
    func requestConformed() {
        let request = ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 20_000, deliveryStatus: .undeliveredOther,
            refundPreference: .grantProrated, sampleContentProvided: true)
        let (conformed, corrections) = request.conformed(productType: .consumable)
        #expect(conformed == ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 0, deliveryStatus: .undeliveredOther,
            refundPreference: nil, sampleContentProvided: true))
        #expect(corrections == ConsumptionValues.conform(ConsumptionValues(request), productType: .consumable).1)

        let subscription = ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 10, deliveryStatus: .delivered, sampleContentProvided: false)
        #expect(subscription.conformed(productType: .autoRenewable).0.consumptionPercentage == nil)
        let valid = ConsumptionRequest(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false)
        let (unchanged, none) = valid.conformed(productType: .autoRenewable)
        #expect(unchanged == valid)
        #expect(none.isEmpty)
    }

    @Test("corrections encode without the omitted side")
    func correctionCoding() throws {
        let correction = ConsumptionCorrection(field: "refundPreference", from: "GRANT_PRORATED", to: nil, reason: "r")
        let text = String(decoding: try AppStoreJSON.encoder().encode(correction), as: UTF8.self)
        #expect(text == #"{"field":"refundPreference","from":"GRANT_PRORATED","reason":"r"}"#)
        #expect(correction.description == "refundPreference GRANT_PRORATED → omitted (r)")
    }
}
