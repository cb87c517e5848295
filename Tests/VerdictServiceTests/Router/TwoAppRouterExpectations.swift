import Foundation
import HTTPTypes
import Testing

/// The expectations every two-app router suite shares: another app's resource answers exactly as
/// an absent one, a token of several apps needs `Verdict-App`, and naming an app the token does not
/// act for answers 404.
extension TwoAppRouterHarness {
    /// An id no app has.
    static let unknown = "7999999999999999"
    static let unknownReplay = "00000000-0000-4000-8000-000000000000"

    /// `answer` is exactly the answer `reference` (a request naming `unknown`, which no app has)
    /// got, with `unknown` replaced by `id`: same status, same type, same body.
    static func expectAbsent(
        _ answer: RouterHarness.Answer, like reference: RouterHarness.Answer, id: String, unknown: String = unknown,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = String(decoding: reference.body, as: UTF8.self).replacingOccurrences(of: unknown, with: id)
        #expect(answer.status == reference.status, sourceLocation: sourceLocation)
        #expect(answer.headers[.contentType] == reference.headers[.contentType], sourceLocation: sourceLocation)
        #expect(String(decoding: answer.body, as: UTF8.self) == expected, sourceLocation: sourceLocation)
    }

    /// A token of both apps without the header, on an operation that needs one app.
    static func expectAppRequired(_ answer: RouterHarness.Answer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 400, sourceLocation: sourceLocation)
        #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "APP_REQUIRED", sourceLocation: sourceLocation)
    }

    /// A token of A naming app B in the header: 404, as an app that does not exist.
    static func expectOtherAppRefused(
        _ harness: TwoAppRouterHarness, _ method: HTTPRequest.Method, _ path: String, body: Data? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let answer = try await harness.send(method, path, token: tokenA, app: b, body: body)
        #expect(answer.status == 404, "\(method) \(path)", sourceLocation: sourceLocation)
        #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "NOT_FOUND", sourceLocation: sourceLocation)
    }

}
