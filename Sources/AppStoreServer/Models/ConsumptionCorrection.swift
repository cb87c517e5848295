/// One change ``ConsumptionValues/conform(_:productType:)`` made to a consumption answer so that
/// Apple accepts it (Send Consumption Information V2 body rules).
///
/// `from` and `to` are the field's value as text (`"30000"`, `"GRANT_PRORATED"`); nil means the
/// field is omitted from the body.
public struct ConsumptionCorrection: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The body field that changed: `consumptionPercentage` or `refundPreference`.
    public let field: String
    /// The proposed value; nil means it was omitted.
    public let from: String?
    /// The corrected value; nil means it is now omitted.
    public let to: String?
    /// Which of Apple's rules the proposed value broke, and what the correction does.
    public let reason: String

    public init(field: String, from: String?, to: String?, reason: String) {
        self.field = field
        self.from = from
        self.to = to
        self.reason = reason
    }

    /// `consumptionPercentage 30000 → 0 (reason)`.
    public var description: String {
        "\(field) \(from ?? "omitted") → \(to ?? "omitted") (\(reason))"
    }
}
