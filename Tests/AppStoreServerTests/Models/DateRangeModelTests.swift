import AppStoreServer
import Foundation
import Testing

/// Dates in Apple's JSON are decoded only inside 1970 … 9999 and converted back without traps.
@Suite struct DateRangeModelTests {
    private func decodeSignedDate(_ literal: String) -> Result<Date?, any Error> {
        Result {
            try AppStoreJSON.decoder().decode(
                JWSTransactionDecodedPayload.self, from: Data(#"{"signedDate":\#(literal)}"#.utf8)
            ).signedDate
        }
    }

    @Test(arguments: ["253402300800000", "18446744073709551616", "-1", "1e999", "-1e999", "\"1681314324000\"", "1e308", "true"])
    func outOfRangeOrWronglyTypedDatesAreDecodingErrors(_ literal: String) {
        guard case .failure(let error) = decodeSignedDate(literal) else {
            Issue.record("\(literal) decoded")
            return
        }
        #expect(error is DecodingError)
    }

    @Test func theRangeItselfDecodes() throws {
        #expect(try decodeSignedDate("0").get() == Date(timeIntervalSince1970: 0))
        #expect(try decodeSignedDate("253402300799999").get()?.appStoreMilliseconds == 253_402_300_799_999)
        #expect(try decodeSignedDate("1681314324000.5").get()?.appStoreMilliseconds == 1_681_314_324_001)
    }

    @Test func millisecondsSaturateInsteadOfTrapping() {
        #expect(Date(timeIntervalSince1970: 1e300).appStoreMilliseconds == .max)
        #expect(Date(timeIntervalSince1970: -1e300).appStoreMilliseconds == .min)
        #expect(Date(timeIntervalSince1970: .infinity).appStoreMilliseconds == .max)
        #expect(Date(timeIntervalSince1970: .nan).appStoreMilliseconds == 0)
        #expect(Date.distantFuture.appStoreMilliseconds == Int64((Date.distantFuture.timeIntervalSince1970 * 1000).rounded()))
        #expect(Date(appStoreMilliseconds: .max).appStoreMilliseconds == .max)
        #expect(Date(appStoreMilliseconds: .min).appStoreMilliseconds == .min)
    }
}
