import AppStoreServer
import Foundation
import Hummingbird

/// Error codes the simulator answers with where Apple documents an error without publishing its
/// number. They sit in the 400 range like Apple's (first three digits = HTTP status) and use the
/// otherwise unused `40099xx` block so they cannot be mistaken for Apple's.
public enum SimulatorAPIErrorCode {
    /// `ConsumptionPercentageOutOfRangeError`: `consumptionPercentage` outside 0…100000, or outside
    /// 1…99999 with `GRANT_PRORATED` for a non-auto-renewable product.
    public static let consumptionPercentageOutOfRange: Int64 = 4_009_901
    /// `UndeliveredConsumptionPercentageNonZeroError`: a non-zero `consumptionPercentage` with a
    /// `deliveryStatus` other than `DELIVERED`.
    public static let undeliveredConsumptionPercentageNonZero: Int64 = 4_009_902
    /// `InvalidLocaleError`: a default message's locale is not a locale such as `en-US`.
    public static let invalidLocale: Int64 = 4_009_903
    /// A realtime URL that is not `https://` or longer than 256 characters.
    public static let invalidRealtimeURL: Int64 = 4_009_904
    /// `BadRequestTransactionIdNotOtidError`: a performance test names no original transaction id.
    public static let transactionIdNotOriginal: Int64 = 4_009_905
    /// `ExistingPerformanceTestRunError`: a performance test is already running.
    public static let performanceTestRunning: Int64 = 4_009_906
}

/// An App Store Server API error answer: Apple's HTTP status and `{"errorCode":…,"errorMessage":"…"}`.
struct APIErrorResponse: Error, Sendable {
    let status: Int
    let errorCode: Int64?
    let errorMessage: String?

    /// An error with a JSON body; the HTTP status is the code's first three digits.
    init(_ code: Int64, _ message: String) {
        self.status = Int(code / 10000)
        self.errorCode = code
        self.errorMessage = message
    }

    /// An error with an explicit status and optional body (nil code: empty body).
    init(status: Int, errorCode: Int64?, errorMessage: String?) {
        self.status = status
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    func response() -> Response {
        guard let errorCode else {
            return Response(status: .init(code: status))
        }
        let payload = ErrorPayload(errorCode: errorCode, errorMessage: errorMessage ?? "")
        return JSONResponse.make(status: status, payload)
    }

    static let generalBadRequest = Self(4_000_000, "Bad request.")
    static let invalidRequestRevision = Self(4_000_005, "Invalid request revision.")
    static let invalidTransactionId = Self(4_000_006, "Invalid transaction id.")
    static let startDateTooFarInPast = Self(4_000_012, "Invalid request. The start date is earlier than the allowed start date.")
    static let startDateAfterEndDate = Self(4_000_013, "Invalid request. The end date precedes the start date or the dates are the same.")
    static let invalidPaginationToken = Self(4_000_014, "Invalid request. The pagination token is invalid.")
    static let invalidStartDate = Self(4_000_015, "Invalid request. The start date is not a timestamp value represented in milliseconds.")
    static let invalidEndDate = Self(4_000_016, "Invalid request. The end date is not a timestamp value represented in milliseconds.")
    static let invalidNotificationType = Self(4_000_018, "Invalid request. The notification type or subtype is invalid.")
    static let multipleFiltersSupplied = Self(4_000_019, "Invalid request. Only one of transactionId or notificationType may be provided.")
    static let invalidSort = Self(4_000_021, "Invalid request. The sort parameter is invalid.")
    static let invalidProductType = Self(4_000_022, "Invalid request. The product type parameter is invalid.")
    static let invalidInAppOwnershipType = Self(4_000_026, "Invalid request. The in-app ownership type parameter is invalid.")
    static let invalidRevoked = Self(4_000_030, "Invalid request. The revoked parameter is invalid.")
    static let invalidStatus = Self(4_000_031, "Invalid request. The status parameter is invalid.")
    static let invalidAccountTenure = Self(4_000_032, "Invalid request. The account tenure field is invalid.")
    static let invalidAppAccountToken = Self(4_000_033, "Invalid request. The app account token field must contain a valid UUID or an empty string.")
    static let invalidConsumptionStatus = Self(4_000_034, "Invalid request. The consumption status field is invalid.")
    static let invalidCustomerConsented = Self(4_000_035, "Invalid request. The customer consented field is invalid.")
    static let invalidDeliveryStatus = Self(4_000_036, "Invalid request. The delivery status field is invalid.")
    static let invalidLifetimeDollarsPurchased = Self(4_000_037, "Invalid request. The lifetime dollars purchased field is invalid.")
    static let invalidLifetimeDollarsRefunded = Self(4_000_038, "Invalid request. The lifetime dollars refunded field is invalid.")
    static let invalidPlatform = Self(4_000_039, "Invalid request. The platform field is invalid.")
    static let invalidPlayTime = Self(4_000_040, "Invalid request. The play time field is invalid.")
    static let invalidSampleContentProvided = Self(4_000_041, "Invalid request. The sample content provided field is invalid.")
    static let invalidUserStatus = Self(4_000_042, "Invalid request. The user status field is invalid.")
    static let invalidRefundPreference = Self(4_000_044, "Invalid request. The refund preference field is invalid.")
    static let appTransactionIdNotSupported = Self(4_000_048, "Invalid request. App transactions aren't supported by this endpoint.")
    static let familyTransactionNotSupported = Self(4_000_185, "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
    static let invalidAppAccountTokenUUID = Self(4_000_183, "Invalid request. The app account token field must be a valid UUID.")
    static let transactionIdIsNotOriginalTransactionId = Self(4_000_187, "Invalid request. The transaction id must be the original transaction id.")
    static let assignedTransactionNotSupported = Self(4_000_227, "Invalid request. Assigned transactions aren't supported by this endpoint.")
    static let consumptionPercentageAutoRenewable = Self(4_000_209, "Invalid request. The consumption percentage must be omitted for auto-renewable subscriptions.")
    static let consumptionPercentageOutOfRange = Self(SimulatorAPIErrorCode.consumptionPercentageOutOfRange, "Invalid request. The consumption percentage is out of range.")
    static let undeliveredPercentageNonZero = Self(SimulatorAPIErrorCode.undeliveredConsumptionPercentageNonZero, "Invalid request. The consumption percentage must be 0 when the content was not delivered.")
    static let serverNotificationURLNotFound = Self(4_040_007, "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment.")
    static let testNotificationNotFound = Self(4_040_008, "Either the test notification token is expired or the notification and status are not yet available.")
    static let transactionIdNotFound = Self(4_040_010, "Transaction id not found.")
    static let messageNotApproved = Self(4_030_017, "The message isn't approved.")
    static let messageNotFound = Self(4_040_015, "The message identifier wasn't found.")
    static let defaultMessageNotFound = Self(4_040_020, "No default message is configured for this product and locale.")
    static let realtimeURLNotFound = Self(4_040_021, "No realtime URL is configured.")
    static let messageAlreadyExists = Self(4_090_001, "A message with this identifier already exists.")
    static let invalidLocale = Self(SimulatorAPIErrorCode.invalidLocale, "Invalid request. The locale is invalid.")
    static let invalidRealtimeURL = Self(SimulatorAPIErrorCode.invalidRealtimeURL, "Invalid request. The realtime URL must be https and at most 256 characters.")
    static let transactionIdNotOriginal = Self(SimulatorAPIErrorCode.transactionIdNotOriginal, "Invalid request. The transaction id is not an original transaction id.")
    static let performanceTestRunning = Self(SimulatorAPIErrorCode.performanceTestRunning, "Invalid request. A performance test is already running.")
    static let rateLimitExceeded = Self(4_290_000, "Rate limit exceeded.")
    static let generalInternal = Self(5_000_000, "An unknown error occurred.")
    static let generalInternalRetryable = Self(5_000_001, "An unknown error occurred. Please try again.")
}

/// JSON responses encoded like Apple's (dates as integer milliseconds).
enum JSONResponse {
    static func make(status: Int = 200, _ value: some Encodable, headers: HTTPFields = [:]) -> Response {
        let data = (try? AppStoreJSON.encoder().encode(value)) ?? Data("{}".utf8)
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: .init(code: status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Reading request bodies.
extension Request {
    /// The whole body (up to 1 MiB) as `Data`.
    func collectBody() async throws -> Data {
        let buffer = try await body.collect(upTo: 1 << 20)
        return Data(buffer.readableBytesView)
    }
}
