import Foundation

/// Why an App Store Server API call failed, and whether trying again later can help.
///
/// Four kinds: Apple answered with a non-2xx status (``Kind-swift.enum/httpError``: status, the raw
/// `errorCode` and `errorMessage` when the body carried them, and `Retry-After`); no response arrived
/// (``Kind-swift.enum/transport``, always retryable); a 2xx response Verdict could not use
/// (``Kind-swift.enum/invalidResponse``: undecodable body, broken paging); or the request could not
/// be built (``Kind-swift.enum/invalidRequest``). Nothing here contains the bearer token.
public struct AppStoreAPIFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: String, Equatable, Sendable {
        /// Apple answered with a status outside 200–299.
        case httpError
        /// No response was received (connection refused, timeout, TLS, DNS, …).
        case transport
        /// A 2xx response whose body could not be decoded, or that broke the paging protocol.
        case invalidResponse
        /// The request could not be built or authorised (empty path parameter, signing failure).
        case invalidRequest
    }

    /// What went wrong, broadly.
    public let kind: Kind
    /// The HTTP status, when a response arrived.
    public let httpStatus: Int?
    /// The `errorCode` of Apple's error body, kept even when this code does not know it.
    public let rawErrorCode: Int64?
    /// The `errorMessage` of Apple's error body.
    public let errorMessage: String?
    /// When Apple allows the next request: the `Retry-After` header, a UNIX time in milliseconds.
    public let retryAfter: Date?
    /// A short description of a transport / decoding / request problem.
    public let detail: String?

    /// The typed error code (`isKnown == false` for codes newer than this library).
    public var apiError: APIError? { rawErrorCode.map(APIError.init(rawValue:)) }

    /// Whether the same request may succeed later: transport failures, HTTP 429, any 5xx, and the
    /// error codes Apple documents as retryable (4040002, 4040004, 4040006, 5000001). Everything
    /// else (4xx, undecodable responses, unbuildable requests) is permanent.
    public var isRetryable: Bool {
        switch kind {
        case .transport:
            return true
        case .httpError:
            if let status = httpStatus, status == 429 || (500...599).contains(status) { return true }
            return apiError?.isRetryable ?? false
        case .invalidResponse, .invalidRequest:
            return false
        }
    }

    /// Creates a failure; prefer the static constructors.
    public init(
        kind: Kind, httpStatus: Int? = nil, rawErrorCode: Int64? = nil, errorMessage: String? = nil,
        retryAfter: Date? = nil, detail: String? = nil
    ) {
        self.kind = kind
        self.httpStatus = httpStatus
        self.rawErrorCode = rawErrorCode
        self.errorMessage = errorMessage
        self.retryAfter = retryAfter
        self.detail = detail
    }

    /// The failure a non-2xx response represents: Apple's `{errorCode, errorMessage}` body when it
    /// has one (a body without it, such as a 401's, leaves both nil) and `Retry-After` when present.
    public static func httpError(_ response: AppStoreHTTPResponse) -> Self {
        let payload = try? AppStoreJSON.decoder().decode(ErrorPayload.self, from: response.body)
        return Self(
            kind: .httpError, httpStatus: response.status, rawErrorCode: payload?.errorCode,
            errorMessage: payload?.errorMessage, retryAfter: retryAfter(response.header("Retry-After"))
        )
    }

    /// Parses a `Retry-After` value as Apple sends it: integer UNIX milliseconds. Other forms
    /// (HTTP dates, delta seconds) are not what Apple documents and yield nil, and so does a time
    /// outside ``AppStoreJSON/dateRange``.
    public static func retryAfter(_ value: String?) -> Date? {
        guard let text = value?.trimmingCharacters(in: .whitespaces),
              let milliseconds = Int64(text), milliseconds > 0, AppStoreJSON.dateRange.contains(Double(milliseconds))
        else { return nil }
        return Date(appStoreMilliseconds: milliseconds)
    }

    /// A failure to receive any response.
    public static func transport(_ error: any Error) -> Self {
        Self(kind: .transport, detail: String(describing: error))
    }

    /// A 2xx response Verdict could not use.
    public static func invalidResponse(status: Int?, _ detail: String) -> Self {
        Self(kind: .invalidResponse, httpStatus: status, detail: detail)
    }

    /// A request that could not be built.
    public static func invalidRequest(_ detail: String) -> Self {
        Self(kind: .invalidRequest, detail: detail)
    }

    public var description: String {
        var parts = ["App Store Server API \(kind.rawValue)"]
        if let httpStatus { parts.append("HTTP \(httpStatus)") }
        if let rawErrorCode { parts.append("errorCode \(rawErrorCode)") }
        if let errorMessage { parts.append("\"\(errorMessage)\"") }
        if let retryAfter { parts.append("retry after \(retryAfter.appStoreMilliseconds) ms") }
        if let detail { parts.append(detail) }
        parts.append(isRetryable ? "(retryable)" : "(permanent)")
        return parts.joined(separator: ", ")
    }
}
