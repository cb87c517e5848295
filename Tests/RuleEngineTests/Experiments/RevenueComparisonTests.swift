import RuleEngine
import Testing

/// Net revenue per decided customer, treatment against holdout, from the arms' sums — against
/// figures computed independently in Python (`statistics.mean`/`variance` of the individual
/// values, the Welch standard error, `math.erfc`).
@Suite("Experiments: net revenue per decided customer")
struct RevenueComparisonTests {
    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    @Test func aClearDifferenceIsConclusive() {
        // Treatment: 30 × 9.99, 15 × 0, 25 × 4.99, 10 × 19.98; holdout: 4 × 9.99, 14 × 0, 2 × 19.98.
        let comparison = RevenueComparison(
            treatment: .init(customers: 80, total: 624_250, squares: 7_608_509_500),
            holdout: .init(customers: 20, total: 79_920, squares: 1_197_601_200))
        #expect(Self.close(comparison.difference, 3_807.125))
        #expect(Self.close(comparison.differenceInterval?.lower, 560.2658531866127))
        #expect(Self.close(comparison.differenceInterval?.upper, 7_053.984146813387))
        #expect(comparison.isConclusive)
        #expect(Self.close(comparison.probabilityTreatmentBeatsHoldout, 0.9892238862020812))
        #expect(comparison.customersNeededPerArm == nil)
    }

    @Test func aSmallExperimentSaysHowManyCustomersItStillNeeds() {
        // Treatment: 5 × 9.99, 4 × 0, 3 × 4.99; holdout: 3 × 9.99, 5 × 0.
        let comparison = RevenueComparison(
            treatment: .init(customers: 12, total: 64_920, squares: 573_700_800),
            holdout: .init(customers: 8, total: 29_970, squares: 299_400_300))
        #expect(Self.close(comparison.differenceInterval?.lower, -2_730.681147080334))
        #expect(Self.close(comparison.differenceInterval?.upper, 6_058.181147080334))
        #expect(!comparison.isConclusive)
        #expect(Self.close(comparison.probabilityTreatmentBeatsHoldout, 0.77097164757738))
        #expect(comparison.customersNeededPerArm == 134)
    }

    @Test func emptyOrSingleCustomerArmsSayNothingAndEqualArmsAreEven() {
        let empty = RevenueComparison(treatment: .init(customers: 0, total: 0, squares: 0), holdout: .init(customers: 3, total: 3, squares: 3))
        #expect(empty.difference == nil && empty.differenceInterval == nil && empty.probabilityTreatmentBeatsHoldout == nil)
        let single = RevenueComparison(treatment: .init(customers: 1, total: 5, squares: 25), holdout: .init(customers: 3, total: 3, squares: 3))
        #expect(single.difference == 4 && single.differenceInterval == nil && single.customersNeededPerArm == nil)
        let even = RevenueComparison(
            treatment: .init(customers: 4, total: 40, squares: 400), holdout: .init(customers: 5, total: 50, squares: 500))
        #expect(even.difference == 0 && even.probabilityTreatmentBeatsHoldout == 0.5 && even.customersNeededPerArm == nil)
    }
}
