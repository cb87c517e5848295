import AppStoreServer
import Foundation
import Testing

@testable import AppStoreSimulator

/// `ConsumptionRequest.conformed(productType:)` against the simulator's ``ConsumptionValidator``:
/// over a grid of product types, delivery statuses, preferences and percentages, every corrected
/// body is accepted, and a body the validator already accepts is never corrected.
@Suite struct ConsumptionConformanceValidatorTests {
    static let percentages: [Int32?] = [nil, -5, 0, 1, 50_000, 99_999, 100_000, 100_001]
    static let preferences: [RefundPreference?] = [nil] + RefundPreference.knownValues.map(Optional.some)

    private func accepts(_ request: ConsumptionRequest, _ type: ProductType) throws -> Bool {
        let body = try AppStoreJSON.encoder().encode(request)
        if case .success = ConsumptionValidator(productType: type).validate(body) { return true }
        return false
    }

    @Test(arguments: ProductType.knownValues)
    func correctedBodiesAreAccepted(_ type: ProductType) throws {
        var checked = 0
        for delivery in DeliveryStatus.knownValues {
            for preference in Self.preferences {
                for percentage in Self.percentages {
                    let proposed = ConsumptionRequest(
                        customerConsented: true, consumptionPercentage: percentage, deliveryStatus: delivery,
                        refundPreference: preference, sampleContentProvided: false)
                    let (corrected, corrections) = proposed.conformed(productType: type)
                    let name = "\(type) \(delivery) \(preference?.rawValue ?? "none") \(percentage.map(String.init) ?? "none")"
                    #expect(try accepts(corrected, type), "\(name) → \(corrections)")
                    if try accepts(proposed, type) {
                        #expect(corrections.isEmpty, "\(name) was valid")
                        #expect(corrected == proposed, "\(name) was valid")
                    } else {
                        #expect(!corrections.isEmpty, "\(name) was invalid")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == DeliveryStatus.knownValues.count * Self.preferences.count * Self.percentages.count)
    }
}
