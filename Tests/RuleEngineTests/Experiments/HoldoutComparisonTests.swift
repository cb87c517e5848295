import RuleEngine
import Testing

/// Treatment against holdout, against figures computed independently (Python, the textbook
/// formulas): Newcombe's interval, the Beta posteriors' comparison, the sample-ratio test and the
/// sample size.
@Suite("Experiments: treatment against holdout")
struct HoldoutComparisonTests {
    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    @Test func aClearLiftIsConclusiveAndAHoldoutTooLargeIsAMismatch() {
        let comparison = HoldoutComparison(
            treatment: .init(customers: 200, saved: 120), holdout: .init(customers: 50, saved: 20), expectedHoldoutShare: 0.05)
        #expect(Self.close(comparison.lift, 0.2))
        #expect(Self.close(comparison.liftInterval?.lower, 0.04547225000530339))
        #expect(Self.close(comparison.liftInterval?.upper, 0.3401128251653327))
        #expect(comparison.isConclusive)
        #expect(Self.close(comparison.probabilityTreatmentBeatsHoldout, 0.9950482777656117))
        #expect(Self.close(comparison.sampleRatioPValue, 1.4022574490271785e-27, 1e-6))
        #expect(comparison.sampleRatioMismatch)
        #expect(comparison.customersNeededPerArm == nil, "conclusive: no more customers needed")
    }

    @Test func aSmallExperimentSaysHowManyCustomersItStillNeeds() {
        let comparison = HoldoutComparison(
            treatment: .init(customers: 50, saved: 30), holdout: .init(customers: 10, saved: 5), expectedHoldoutShare: nil)
        #expect(Self.close(comparison.liftInterval?.lower, -0.19745330093662966))
        #expect(Self.close(comparison.liftInterval?.upper, 0.3910986095354003))
        #expect(!comparison.isConclusive)
        #expect(Self.close(comparison.probabilityTreatmentBeatsHoldout, 0.7335622801871979))
        #expect(comparison.customersNeededPerArm == 388)
        #expect(comparison.sampleRatioPValue == nil)
    }

    @Test func theExpectedRatioIsNoMismatchAndEmptyArmsSayNothing() {
        let exact = HoldoutComparison(
            treatment: .init(customers: 190, saved: 50), holdout: .init(customers: 10, saved: 2), expectedHoldoutShare: 0.05)
        #expect(Self.close(exact.sampleRatioPValue, 1) && !exact.sampleRatioMismatch)
        let empty = HoldoutComparison(treatment: .init(customers: 10, saved: 5), holdout: .init(customers: 0, saved: 0), expectedHoldoutShare: 0.05)
        #expect(empty.lift == nil && empty.liftInterval == nil && empty.probabilityTreatmentBeatsHoldout == nil)
        #expect(!empty.isConclusive && empty.customersNeededPerArm == nil)
    }
}
