import Foundation
import Testing

@testable import RuleEngine

/// `FactData(json:)` reads JSON with its own reader: it must give exactly the tree Foundation's
/// decoder gives (the `Decodable` conformance), and refuse what it refuses.
@Suite("Facts: JSON read into FactData")
struct FactDataJSONTests {
    static func decoded(_ json: String) -> FactData? {
        try? JSONDecoder().decode(FactData.self, from: Data(json.utf8))
    }

    static func read(_ json: String) -> FactData? {
        try? FactData(json: Data(json.utf8))
    }

    @Test("the same tree as Foundation's decoder", arguments: [
        #"{"a": 1, "b": [true, false, null], "c": {"d": "e", "f": -12}, "g": [], "h": {}}"#,
        #"[1, -0, 0, 1.5, -2.25, 1.0, 1e3, 1E2, 2.5e-1, -1e0, 123456789012345678, 9223372036854775807, -9223372036854775808]"#,
        #"[9223372036854775808, 1e300, 0.1, 5e-324]"#,
        #"{"text": "tab\t quote\" backslash\\ slash\/ \u00e9\u4e2d \ud83d\ude00 é 😀 \b\f\n\r"}"#,
        #"  "a string alone"  "#, "17", "null", "true",
        #"{"dup": 1, "dup": 2}"#, "[1,]", #"{"a": 1,}"#,
        #"{"nested": [[[{"x": [[]]}]]]}"#,
    ])
    func sameTree(_ json: String) throws {
        let expected = try #require(Self.decoded(json), "Foundation reads \(json)")
        #expect(Self.read(json) == expected, "\(json)")
    }

    @Test("refuses what is not JSON", arguments: [
        "", "{", "[,]", "[1,,]", "{,}", #"{"a" 1}"#, "01", "1.", ".5", "-", "+1", "1e", "tru", "nul", #""open"#,
        "\"control\u{01}\"", #""\x""#, #""\ud800""#, #""\u12""#, "[1] [2]", "{} x", "NaN", "[1 2]",
    ])
    func refuses(_ json: String) {
        #expect(Self.read(json) == nil, "\(json)")
        #expect(Self.decoded(json) == nil, "Foundation refuses \(json) too")
    }

    @Test("nesting deeper than 512 levels is refused")
    func depth() {
        #expect(Self.read(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) != nil)
        #expect(Self.read(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)) == nil)
    }
}
