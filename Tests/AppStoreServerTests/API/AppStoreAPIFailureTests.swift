import AppStoreServer
import Foundation
import Testing

/// How non-2xx responses, transport errors and unusable bodies become ``AppStoreAPIFailure``.
@Suite("API: error parsing and retryability")
struct AppStoreAPIFailureTests {
    static func failure(_ reply: RecordingTransport.Reply) async throws -> AppStoreAPIFailure {
        let client = try APIClientFixtures.client(RecordingTransport([reply]))
        let failure = await #expect(throws: AppStoreAPIFailure.self) {
            _ = try await client.getTransactionInfo(transactionId: "1234")
        }
        return try #require(failure)
    }

    static func http(_ status: Int, _ json: String, headers: [(name: String, value: String)] = []) -> RecordingTransport.Reply {
        .response(AppStoreHTTPResponse(status: status, headers: headers, body: Data(json.utf8)))
    }

    @Test func rateLimitKeepsCodeAndParsesRetryAfterMilliseconds() async throws {
        let failure = try await Self.failure(Self.http(
            429, #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#, headers: [("Retry-After", "1699999999999")]
        ))
        #expect(failure.kind == .httpError)
        #expect(failure.httpStatus == 429)
        #expect(failure.rawErrorCode == 4290000)
        #expect(failure.apiError == .rateLimitExceeded)
        #expect(failure.errorMessage == "Rate limit exceeded.")
        #expect(failure.retryAfter?.appStoreMilliseconds == 1_699_999_999_999)
        #expect(failure.isRetryable)
    }

    @Test func retryAfterHeaderNameIsCaseInsensitive() async throws {
        let failure = try await Self.failure(Self.http(429, "", headers: [("retry-after", "1700000000000")]))
        #expect(failure.retryAfter == Date(appStoreMilliseconds: 1_700_000_000_000))
    }

    @Test(arguments: ["Wed, 21 Oct 2015 07:28:00 GMT", "", "-5", "12.5", "253402300800000", "9223372036854775807",
                      "9223372036854775808"])
    func retryAfterInOtherFormsIsIgnored(_ value: String) {
        #expect(AppStoreAPIFailure.retryAfter(value) == nil)
    }

    @Test func aHugeRetryAfterDescribesWithoutTrapping() async throws {
        let failure = try await Self.failure(Self.http(429, "", headers: [("Retry-After", "9223372036854775807")]))
        #expect(failure.retryAfter == nil)
        #expect(failure.description.contains("HTTP 429"))
    }

    @Test func unknownErrorCodeIsKeptRaw() async throws {
        let failure = try await Self.failure(Self.http(400, #"{"errorCode":9990000,"errorMessage":"Testing error."}"#))
        #expect(failure.httpStatus == 400)
        #expect(failure.rawErrorCode == 9990000)
        #expect(failure.apiError?.rawValue == 9990000)
        #expect(failure.apiError?.isKnown == false)
        #expect(failure.errorMessage == "Testing error.")
        #expect(!failure.isRetryable)
    }

    @Test func internalErrorIsRetryable() async throws {
        let failure = try await Self.failure(Self.http(500, #"{"errorCode":5000000,"errorMessage":"An unknown error occurred."}"#))
        #expect(failure.apiError == .generalInternal)
        #expect(failure.isRetryable)
    }

    @Test(arguments: [Int64(4040002), 4040004, 4040006, 5000001])
    func documentedRetryableCodesAreRetryable(_ code: Int64) async throws {
        let status = Int(code / 10000)
        let failure = try await Self.failure(Self.http(status, #"{"errorCode":\#(code),"errorMessage":"Retry."}"#))
        #expect(failure.rawErrorCode == code)
        #expect(failure.isRetryable)
    }

    @Test(arguments: [Int64(4040010), 4000006, 4040001, 4000035])
    func otherClientErrorsArePermanent(_ code: Int64) async throws {
        let status = Int(code / 10000)
        let failure = try await Self.failure(Self.http(status, #"{"errorCode":\#(code),"errorMessage":"No."}"#))
        #expect(failure.apiError == APIError(rawValue: code))
        #expect(!failure.isRetryable)
    }

    @Test func unauthorizedWithoutBodyHasNoErrorCode() async throws {
        let failure = try await Self.failure(Self.http(401, "Unauthenticated"))
        #expect(failure.httpStatus == 401)
        #expect(failure.rawErrorCode == nil)
        #expect(failure.apiError == nil)
        #expect(failure.errorMessage == nil)
        #expect(!failure.isRetryable)
    }

    @Test func serverErrorWithoutBodyIsRetryable() async throws {
        let failure = try await Self.failure(Self.http(503, "<html>unavailable</html>"))
        #expect(failure.rawErrorCode == nil)
        #expect(failure.isRetryable)
    }

    @Test func connectionErrorIsRetryableTransportFailure() async throws {
        let failure = try await Self.failure(.failure(ConnectionRefused()))
        #expect(failure.kind == .transport)
        #expect(failure.httpStatus == nil)
        #expect(failure.isRetryable)
    }

    @Test func oversizedBodyIsPermanentInvalidResponse() async throws {
        let failure = try await Self.failure(.failure(AppStoreHTTPTransportError.responseTooLarge(limit: 1_048_576)))
        #expect(failure.kind == .invalidResponse)
        #expect(!failure.isRetryable)
    }

    @Test func undecodableSuccessBodyIsPermanentInvalidResponse() async throws {
        let failure = try await Self.failure(Self.http(200, #"{"signedTransactionInfo":42}"#))
        #expect(failure.kind == .invalidResponse)
        #expect(failure.httpStatus == 200)
        #expect(!failure.isRetryable)
    }

    @Test func descriptionDoesNotContainTheBearerToken() async throws {
        let transport = RecordingTransport(status: 500, json: #"{"errorCode":5000000,"errorMessage":"An unknown error occurred."}"#)
        let client = try APIClientFixtures.client(transport)
        let failure = await #expect(throws: AppStoreAPIFailure.self) {
            _ = try await client.getTransactionInfo(transactionId: "1234")
        }
        let token = try #require(transport.requests.first?.header("Authorization")?.dropFirst("Bearer ".count))
        let rendered = "\(try #require(failure)) \(String(reflecting: try #require(failure)))"
        #expect(!rendered.contains(String(token.prefix(20))))
        #expect(rendered.contains("5000000"))
    }
}

/// Stands in for a connection error thrown by a transport.
private struct ConnectionRefused: Error {}
