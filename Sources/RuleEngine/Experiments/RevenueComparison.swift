/// Treatment against holdout for one offer rule on **net revenue per decided customer** (in one
/// currency: what each customer paid after the decision, less refunds, inside the attribution
/// window; a customer who left counts 0), compared the way the console shows it —
/// - the **difference of means** (treatment − holdout) with a 95 % confidence interval by the
///   normal approximation with unequal variances (Welch's standard error), sensible from a few
///   dozen customers per arm — revenue is skewed, so small arms give wide intervals;
/// - the **probability that treatment's mean is higher**, from the same normal approximation of
///   the difference (flat priors);
/// - while the interval still contains 0, the **customers per arm** a two-sided test at 5 % with
///   80 % power needs to detect the observed difference.
///
/// Each arm is given as sums (count, total, sum of squares) so that it can be read from daily
/// rollups without the individual values.
public struct RevenueComparison: Sendable, Hashable {
    /// One arm: customers, their summed revenue and the sum of each customer's revenue squared.
    public struct Arm: Sendable, Hashable {
        public var customers: Int
        public var total: Double
        public var squares: Double

        public init(customers: Int, total: Double, squares: Double) {
            self.customers = customers
            self.total = total
            self.squares = squares
        }

        /// The mean revenue per customer, nil without customers.
        public var mean: Double? { customers > 0 ? total / Double(customers) : nil }

        /// The sample variance, nil under two customers.
        public var variance: Double? {
            guard customers > 1, let mean else { return nil }
            return max(0, (squares - Double(customers) * mean * mean) / Double(customers - 1))
        }
    }

    public var treatment: Arm
    public var holdout: Arm

    public init(treatment: Arm, holdout: Arm) {
        self.treatment = treatment
        self.holdout = holdout
    }

    /// Treatment's mean minus the holdout's, nil when an arm is empty.
    public var difference: Double? {
        guard let t = treatment.mean, let h = holdout.mean else { return nil }
        return t - h
    }

    /// The standard error of the difference, nil under two customers in an arm.
    public var standardError: Double? {
        guard let vt = treatment.variance, let vh = holdout.variance else { return nil }
        return (vt / Double(treatment.customers) + vh / Double(holdout.customers)).squareRoot()
    }

    /// The 95 % interval of the difference.
    public var differenceInterval: (lower: Double, upper: Double)? {
        guard let difference, let standardError else { return nil }
        return (difference - HoldoutComparison.z95 * standardError, difference + HoldoutComparison.z95 * standardError)
    }

    /// Whether the interval excludes 0.
    public var isConclusive: Bool {
        guard let interval = differenceInterval else { return false }
        return interval.lower > 0 || interval.upper < 0
    }

    /// The probability that treatment's true mean is above the holdout's.
    public var probabilityTreatmentBeatsHoldout: Double? {
        guard let difference, let standardError else { return nil }
        guard standardError > 0 else { return difference > 0 ? 1 : difference < 0 ? 0 : 0.5 }
        return HoldoutComparison.normalCDF(difference / standardError)
    }

    /// Customers per arm needed to detect the observed difference (two-sided 5 %, 80 % power);
    /// nil when the result is conclusive or there is no difference to detect.
    public var customersNeededPerArm: Int? {
        guard !isConclusive, let difference, difference != 0, let vt = treatment.variance, let vh = holdout.variance else {
            return nil
        }
        let z = HoldoutComparison.z95 + HoldoutComparison.z80
        return Int((z * z * (vt + vh) / (difference * difference)).rounded(.up))
    }
}
