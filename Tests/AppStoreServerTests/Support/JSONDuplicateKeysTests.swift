import AppStoreServer
import Foundation
import Testing

/// Repeated member names are found wherever they are, compared as the decoder compares them, and
/// nothing else is reported.
@Suite struct JSONDuplicateKeysTests {
    private func duplicate(_ text: String) -> String? {
        JSONDuplicateKeys.firstDuplicate(in: Data(text.utf8))
    }

    @Test func repeatedNamesAreFoundAtAnyDepth() {
        #expect(duplicate(#"{"consented":true,"consented":false}"#) == "consented")
        #expect(duplicate(#"{"a":1,"b":{"c":[{"d":1},{"d":2,"d":3}]}}"#) == "d")
        #expect(duplicate(#"[{"x":1},{"y":{"z":null,"z":null}}]"#) == "z")
        #expect(duplicate(#"{"signedPayload":"a.b.c", "signedPayload":"d.e.f"}"#) == "signedPayload")
        #expect(duplicate("{ \"a\" :\n1 ,\t\"a\": 2 }") == "a")
    }

    @Test func namesAreComparedUnescaped() {
        #expect(duplicate(#"{"a":1,"\u0061":2}"#) == "a")
        #expect(duplicate(#"{"a\"b":1,"a\u0022b":2}"#) == "a\"b")
        #expect(duplicate(#"{"😀":1,"\ud83d\ude00":2}"#) == "😀")
        #expect(duplicate(#"{"\n":1,"\u000a":2}"#) == "\n")
    }

    @Test func distinctNamesAndValuesAreNotDuplicates() {
        #expect(duplicate(#"{"a":"a","b":"a"}"#) == nil)
        #expect(duplicate(#"{"a":{"a":{"a":1}}}"#) == nil)
        #expect(duplicate(#"[{"a":1},{"a":2}]"#) == nil)
        #expect(duplicate(#"["a","a"]"#) == nil)
        #expect(duplicate(#"{"a":["b","b"],"b":1}"#) == nil)
        #expect(duplicate(#"{"a":1,"A":2}"#) == nil)
        #expect(duplicate(#"{"a,\"a":1,"a":2}"#) == nil)
        #expect(duplicate("") == nil)
        #expect(duplicate("42") == nil)
    }

    @Test func malformedTextIsLeftToTheParser() {
        for text in [#"{"a":1,"a"#, #"{"a\q":1,"a\q":2}"#, "}}}{", #"{"a":"\u12"}"#, "\"", "{\"a\\"] {
            _ = duplicate(text)  // must not trap; the parser that follows refuses these
        }
        #expect(duplicate(#"{"a":1}]{"a":2}"#) == nil, "a closed object forgets its names")
    }

    @Test func deepNestingAndManyNamesStayLinear() {
        let deep = String(repeating: "[{\"a\":", count: 50_000) + "1" + String(repeating: "}]", count: 50_000)
        #expect(duplicate(deep) == nil)
        let wide = "{" + (0..<20_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k19999\":0}"
        #expect(duplicate(wide) == "k19999")
    }

    @Test func theDecoderWouldHaveKeptTheFirstValue() throws {
        // Why the check exists: Foundation takes the first value, most other parsers the last.
        struct Consent: Decodable { var consented: Bool }
        let body = Data(#"{"consented":true,"consented":false}"#.utf8)
        let decoded = try JSONDecoder().decode(Consent.self, from: body)
        #expect(decoded.consented == true || decoded.consented == false)
        #expect(JSONDuplicateKeys.firstDuplicate(in: body) == "consented")
    }
}
