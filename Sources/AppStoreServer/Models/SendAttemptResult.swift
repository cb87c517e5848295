/// The outcome of one attempt to deliver a notification to your server.
public struct SendAttemptResult: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let success = Self(rawValue: "SUCCESS")
    public static let timedOut = Self(rawValue: "TIMED_OUT")
    public static let tlsIssue = Self(rawValue: "TLS_ISSUE")
    public static let circularRedirect = Self(rawValue: "CIRCULAR_REDIRECT")
    public static let noResponse = Self(rawValue: "NO_RESPONSE")
    public static let socketIssue = Self(rawValue: "SOCKET_ISSUE")
    public static let unsupportedCharset = Self(rawValue: "UNSUPPORTED_CHARSET")
    public static let invalidResponse = Self(rawValue: "INVALID_RESPONSE")
    public static let prematureClose = Self(rawValue: "PREMATURE_CLOSE")
    public static let unsuccessfulHttpResponseCode = Self(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    public static let other = Self(rawValue: "OTHER")

    /// Apple's Swift library spelling of ``unsupportedCharset``.
    public static let unsuportedCharset = Self.unsupportedCharset

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [
        .success,
        .timedOut,
        .tlsIssue,
        .circularRedirect,
        .noResponse,
        .socketIssue,
        .unsupportedCharset,
        .invalidResponse,
        .prematureClose,
        .unsuccessfulHttpResponseCode,
        .other,
    ]
}
