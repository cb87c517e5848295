import RuleEngine
import Testing

@Suite("Money")
struct MoneyTests {
    @Test("parses decimal amounts exactly into milliunits", arguments: [
        ("9.99 USD", Int64(9_990), "USD"), ("5800 JPY", 5_800_000, "JPY"), ("0.001 EUR", 1, "EUR"),
        ("-0.5 GBP", -500, "GBP"), ("39.990 EUR", 39_990, "EUR"),
    ])
    func parses(text: String, milliunits: Int64, currency: String) {
        #expect(Money(parsing: text) == Money(milliunits: milliunits, currency: currency))
    }

    @Test("rejects malformed amounts", arguments: [
        "9.99", "USD 9.99", "9.9999 USD", "9. USD", ".5 USD", "9,99 EUR", "9.99 usd", "9.99 USDX",
        "1e3 USD", "99999999999999999 USD", "", "9.99  USD extra",
    ])
    func rejects(text: String) {
        #expect(Money(parsing: text) == nil)
    }

    @Test("prints without trailing zeros")
    func prints() {
        #expect(Money(milliunits: 9_990, currency: "USD").description == "9.99 USD")
        #expect(Money(milliunits: 5_800_000, currency: "JPY").description == "5800 JPY")
        #expect(Money(milliunits: -500, currency: "GBP").description == "-0.5 GBP")
        #expect(Money(milliunits: 1, currency: "EUR").description == "0.001 EUR")
    }
}
