/// The JSON body of an App Store Server API error response: `{"errorCode":…,"errorMessage":…}`.
public struct ErrorPayload: Codable, Hashable, Sendable {
    /// The numeric error code; ``APIError`` names the documented ones.
    public var errorCode: Int64
    public var errorMessage: String

    public init(errorCode: Int64, errorMessage: String) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    /// The code as an ``APIError`` (possibly one this code does not know: check `isKnown`).
    public var apiError: APIError { APIError(rawValue: errorCode) }
}
