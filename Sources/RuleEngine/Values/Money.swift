/// An amount of one currency, exactly: Int64 milliunits (1/1000 of the currency's unit, as Apple
/// reports prices) and an ISO 4217 code. Two amounts of different currencies never compare or add.
///
/// The code is stored packed into an integer (its ASCII bytes), so a `Money` is plain data:
/// copying and comparing amounts in the rule engine's hot path involves no reference counting.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in milliunits: 9.99 USD is 9990.
    public let milliunits: Int64
    /// The currency's bytes, packed big-endian (`USD` is 0x555344); 0 for no currency.
    let currencyCode: UInt64

    /// An amount of `milliunits` in `currency` (at most 8 ASCII bytes; ISO 4217 codes have 3).
    public init(milliunits: Int64, currency: String) {
        precondition(currency.utf8.count <= 8 && currency.utf8.allSatisfy { $0 < 128 }, "a currency code is at most 8 ASCII bytes")
        self.milliunits = milliunits
        self.currencyCode = currency.utf8.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// An amount with an already packed currency code.
    init(milliunits: Int64, currencyCode: UInt64) {
        self.milliunits = milliunits
        self.currencyCode = currencyCode
    }

    /// The ISO 4217 currency code, upper case (`USD`); empty for a currency-less zero.
    public var currency: String {
        var bytes: [UInt8] = []
        var rest = currencyCode
        while rest != 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses `"<decimal> <CODE>"` such as `9.99 USD`, `5800 JPY` or `-0.5 EUR`: at most three
    /// decimals, never through floating point; nil for anything else (or on overflow).
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, Self.isCurrencyCode(parts[1]) else { return nil }
        var number = Substring(parts[0])
        let negative = number.first == "-"
        if negative { number = number.dropFirst() }
        let pieces = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard pieces.count == 1 || (!fraction.isEmpty && fraction.count <= 3 && fraction.allSatisfy(\.isASCIIDigit))
        else { return nil }
        let paddedFraction = fraction + String(repeating: "0", count: 3 - fraction.count)
        guard let units = Int64(whole), let thousandths = Int64(paddedFraction) else { return nil }
        let (scaled, overflow) = units.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        let (sum, overflow2) = scaled.addingReportingOverflow(thousandths)
        guard !overflow2 else { return nil }
        self.init(milliunits: negative ? -sum : sum, currency: String(parts[1]))
    }

    /// Whether `code` looks like an ISO 4217 code: three ASCII capital letters.
    public static func isCurrencyCode(_ code: some StringProtocol) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (65...90).contains($0) }
    }

    /// The amount as a decimal with three places trimmed of trailing zeros, then the code: `9.99 USD`.
    public var description: String {
        let magnitude = milliunits.magnitude
        var text = String(magnitude / 1000)
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return (milliunits < 0 ? "-" : "") + text + " " + currency
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
