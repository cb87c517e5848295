#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Treatment against holdout for one offer rule: how many customers each arm had and how many
/// stayed, compared the way the console shows it —
/// - the **lift** (treatment's save rate minus the holdout's) with a 95 % confidence interval by
///   Newcombe's hybrid score method (two Wilson intervals combined), which stays sensible for small
///   counts and rates near 0 or 1;
/// - the **probability that treatment beats holdout**: Beta(1 + saved, 1 + lost) posteriors for
///   each arm (uniform priors), compared through their normal approximation;
/// - a **sample-ratio mismatch** check: a chi-square test (1 degree of freedom) of the holdout's
///   share of the two arms against the bundle's holdout percentage (p < 0.001 warns);
/// - while the interval still contains 0, the **customers per arm** a two-sided test at 5 % with
///   80 % power needs to detect the observed lift.
public struct HoldoutComparison: Sendable, Hashable {
    /// One arm: customers and how many stayed.
    public struct Arm: Sendable, Hashable {
        public var customers: Int
        public var saved: Int

        public init(customers: Int, saved: Int) {
            self.customers = customers
            self.saved = saved
        }

        /// The save rate, nil without customers.
        public var rate: Double? { customers > 0 ? Double(saved) / Double(customers) : nil }
    }

    public var treatment: Arm
    public var holdout: Arm
    /// The bundle's holdout share (0…1) the arms should show.
    public var expectedHoldoutShare: Double?

    public init(treatment: Arm, holdout: Arm, expectedHoldoutShare: Double?) {
        self.treatment = treatment
        self.holdout = holdout
        self.expectedHoldoutShare = expectedHoldoutShare
    }

    static let z95 = 1.959963984540054
    static let z80 = 0.8416212335729143

    /// Treatment's rate minus the holdout's, nil when an arm is empty.
    public var lift: Double? {
        guard let t = treatment.rate, let h = holdout.rate else { return nil }
        return t - h
    }

    /// The 95 % interval of the lift (Newcombe's hybrid score method).
    public var liftInterval: (lower: Double, upper: Double)? {
        guard let lift, let t = treatment.rate, let h = holdout.rate else { return nil }
        let (tl, tu) = Self.wilson(treatment)
        let (hl, hu) = Self.wilson(holdout)
        return (lift - ((t - tl) * (t - tl) + (hu - h) * (hu - h)).squareRoot(),
                lift + ((tu - t) * (tu - t) + (h - hl) * (h - hl)).squareRoot())
    }

    /// Whether the interval excludes 0.
    public var isConclusive: Bool {
        guard let interval = liftInterval else { return false }
        return interval.lower > 0 || interval.upper < 0
    }

    /// The probability that treatment's true rate is above the holdout's.
    public var probabilityTreatmentBeatsHoldout: Double? {
        guard treatment.customers > 0, holdout.customers > 0 else { return nil }
        let (mt, vt) = Self.betaMoments(treatment)
        let (mh, vh) = Self.betaMoments(holdout)
        let deviation = (vt + vh).squareRoot()
        guard deviation > 0 else { return mt > mh ? 1 : mt < mh ? 0 : 0.5 }
        return Self.normalCDF((mt - mh) / deviation)
    }

    /// The p-value of the chi-square test of the holdout's share against the expected one.
    public var sampleRatioPValue: Double? {
        guard let share = expectedHoldoutShare, share > 0, share < 1 else { return nil }
        let total = Double(treatment.customers + holdout.customers)
        guard total > 0 else { return nil }
        let expectedHoldout = total * share
        let expectedTreatment = total - expectedHoldout
        let chiSquare = pow(Double(holdout.customers) - expectedHoldout, 2) / expectedHoldout
            + pow(Double(treatment.customers) - expectedTreatment, 2) / expectedTreatment
        return erfc((chiSquare / 2).squareRoot())
    }

    /// Whether the arms' ratio is off (p < 0.001): the holdout is not working as configured.
    public var sampleRatioMismatch: Bool { (sampleRatioPValue ?? 1) < 0.001 }

    /// Customers per arm needed to detect the observed lift (two-sided 5 %, 80 % power); nil
    /// when the result is conclusive or there is no lift to detect.
    public var customersNeededPerArm: Int? {
        guard !isConclusive, let lift, lift != 0, let t = treatment.rate, let h = holdout.rate else { return nil }
        let pooled = (t + h) / 2
        let numerator = Self.z95 * (2 * pooled * (1 - pooled)).squareRoot() + Self.z80 * (t * (1 - t) + h * (1 - h)).squareRoot()
        return Int((numerator * numerator / (lift * lift)).rounded(.up))
    }

    /// The Wilson score interval of an arm's rate.
    static func wilson(_ arm: Arm) -> (Double, Double) {
        guard let p = arm.rate else { return (0, 1) }
        let n = Double(arm.customers)
        let z2 = z95 * z95
        let center = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z95 * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        return (center - half, center + half)
    }

    /// Mean and variance of Beta(1 + saved, 1 + lost).
    static func betaMoments(_ arm: Arm) -> (Double, Double) {
        let a = Double(1 + arm.saved)
        let b = Double(1 + arm.customers - arm.saved)
        return (a / (a + b), a * b / ((a + b) * (a + b) * (a + b + 1)))
    }

    static func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.squareRoot()) }
}
