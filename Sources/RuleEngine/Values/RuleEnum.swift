/// An enumeration type of the rule language, such as Apple's `NotificationType` or `OfferType`.
///
/// Rules name cases by readable upper-case names (`AUTO_RENEW_DISABLED`, `WIN_BACK`); facts carry
/// a case as its position in ``cases`` (``RuleValue/enumeration(_:)``) so that comparing two enum
/// values is an integer comparison. Each case also keeps Apple's wire value (`"4"` for `WIN_BACK`,
/// `"Auto-Renewable Subscription"` for `AUTO_RENEWABLE`) so facts decode from either spelling.
/// Two enum types are the same type when their names are equal.
public struct RuleEnum: Hashable, Sendable, CustomStringConvertible {
    /// One case: its rule-language name and Apple's wire value.
    public struct Case: Hashable, Sendable {
        public let name: String
        public let wireValue: String
        public init(name: String, wireValue: String) {
            self.name = name
            self.wireValue = wireValue
        }
    }

    /// The ordinal used for a wire value this version does not know (Apple adds values over time).
    /// It equals no named case and renders as `UNRECOGNIZED`.
    public static let unrecognizedOrdinal: Int32 = -1

    /// The type name (`NotificationType`).
    public let name: String
    /// The cases, in Apple's documentation order.
    public let cases: [Case]
    private let ordinalByName: [String: Int32]
    private let ordinalByWire: [String: Int32]

    public init(name: String, cases: [Case]) {
        self.name = name
        self.cases = cases
        var byName: [String: Int32] = [:]
        var byWire: [String: Int32] = [:]
        for (offset, item) in cases.enumerated() {
            if byName[item.name] == nil { byName[item.name] = Int32(offset) }
            if byWire[item.wireValue] == nil { byWire[item.wireValue] = Int32(offset) }
        }
        self.ordinalByName = byName
        self.ordinalByWire = byWire
    }

    /// The case names, in order.
    public var caseNames: [String] { cases.map(\.name) }

    /// The ordinal of the case called `name` in rules, or nil.
    public func ordinal(named name: String) -> Int32? { ordinalByName[name] }

    /// The ordinal for a value as facts may spell it: a case name or Apple's wire value; nil if unknown.
    public func ordinal(decoding text: String) -> Int32? { ordinalByName[text] ?? ordinalByWire[text] }

    /// The case name of `ordinal`, or `UNRECOGNIZED`.
    public func caseName(_ ordinal: Int32) -> String {
        ordinal >= 0 && Int(ordinal) < cases.count ? cases[Int(ordinal)].name : "UNRECOGNIZED"
    }

    public var description: String { name }

    public static func == (lhs: RuleEnum, rhs: RuleEnum) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
