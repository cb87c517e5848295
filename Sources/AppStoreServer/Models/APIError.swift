/// An error code of the App Store Server API (`errorCode` of an error body).
///
/// The first three digits are the HTTP status the error arrives with. Codes newer than this list
/// decode as unknown values (`isKnown == false`) and keep their number.
public struct APIError: AppleEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 4000000 `GENERAL_BAD_REQUEST`: General bad request.
    public static let generalBadRequest = Self(rawValue: 4000000)
    /// 4000002 `INVALID_APP_IDENTIFIER`: Invalid app identifier.
    public static let invalidAppIdentifier = Self(rawValue: 4000002)
    /// 4000005 `INVALID_REQUEST_REVISION`: Invalid request revision.
    public static let invalidRequestRevision = Self(rawValue: 4000005)
    /// 4000006 `INVALID_TRANSACTION_ID`: Bad transactionId path param (e.g. appTransactionId or garbage).
    public static let invalidTransactionId = Self(rawValue: 4000006)
    /// 4000008 `INVALID_ORIGINAL_TRANSACTION_ID`: Invalid original transaction id.
    public static let invalidOriginalTransactionId = Self(rawValue: 4000008)
    /// 4000009 `INVALID_EXTEND_BY_DAYS`: Invalid extend by days.
    public static let invalidExtendByDays = Self(rawValue: 4000009)
    /// 4000010 `INVALID_EXTEND_REASON_CODE`: Invalid extend reason code.
    public static let invalidExtendReasonCode = Self(rawValue: 4000010)
    /// 4000011 `INVALID_REQUEST_IDENTIFIER`: Invalid request identifier.
    public static let invalidRequestIdentifier = Self(rawValue: 4000011)
    /// 4000012 `START_DATE_TOO_FAR_IN_PAST`: Notification history startDate older than 180 days.
    public static let startDateTooFarInPast = Self(rawValue: 4000012)
    /// 4000013 `START_DATE_AFTER_END_DATE`: `endDate` is not after `startDate`.
    public static let startDateAfterEndDate = Self(rawValue: 4000013)
    /// 4000014 `INVALID_PAGINATION_TOKEN`: Invalid pagination token.
    public static let invalidPaginationToken = Self(rawValue: 4000014)
    /// 4000015 `INVALID_START_DATE`: Invalid start date.
    public static let invalidStartDate = Self(rawValue: 4000015)
    /// 4000016 `INVALID_END_DATE`: Invalid end date.
    public static let invalidEndDate = Self(rawValue: 4000016)
    /// 4000017 `PAGINATION_TOKEN_EXPIRED`: Pagination token expired.
    public static let paginationTokenExpired = Self(rawValue: 4000017)
    /// 4000018 `INVALID_NOTIFICATION_TYPE`: Invalid notification type.
    public static let invalidNotificationType = Self(rawValue: 4000018)
    /// 4000019 `MULTIPLE_FILTERS_SUPPLIED`: Notification history: transactionId AND notificationType both set.
    public static let multipleFiltersSupplied = Self(rawValue: 4000019)
    /// 4000020 `INVALID_TEST_NOTIFICATION_TOKEN`: Invalid test notification token.
    public static let invalidTestNotificationToken = Self(rawValue: 4000020)
    /// 4000021 `INVALID_SORT`: Invalid sort.
    public static let invalidSort = Self(rawValue: 4000021)
    /// 4000022 `INVALID_PRODUCT_TYPE`: Invalid product type.
    public static let invalidProductType = Self(rawValue: 4000022)
    /// 4000023 `INVALID_PRODUCT_ID`: Invalid product id.
    public static let invalidProductId = Self(rawValue: 4000023)
    /// 4000024 `INVALID_SUBSCRIPTION_GROUP_IDENTIFIER`: Invalid subscription group identifier.
    public static let invalidSubscriptionGroupIdentifier = Self(rawValue: 4000024)
    /// 4000025 `INVALID_EXCLUDE_REVOKED`: Invalid exclude revoked.
    public static let invalidExcludeRevoked = Self(rawValue: 4000025)
    /// 4000026 `INVALID_IN_APP_OWNERSHIP_TYPE`: Invalid in app ownership type.
    public static let invalidInAppOwnershipType = Self(rawValue: 4000026)
    /// 4000027 `INVALID_EMPTY_STOREFRONT_COUNTRY_CODE_LIST`: Invalid empty storefront country code list.
    public static let invalidEmptyStorefrontCountryCodeList = Self(rawValue: 4000027)
    /// 4000028 `INVALID_STOREFRONT_COUNTRY_CODE`: Invalid storefront country code.
    public static let invalidStorefrontCountryCode = Self(rawValue: 4000028)
    /// 4000030 `INVALID_REVOKED`: Invalid revoked.
    public static let invalidRevoked = Self(rawValue: 4000030)
    /// 4000031 `INVALID_STATUS`: Invalid status.
    public static let invalidStatus = Self(rawValue: 4000031)
    /// 4000032 `INVALID_ACCOUNT_TENURE`: V1 consumption.
    public static let invalidAccountTenure = Self(rawValue: 4000032)
    /// 4000033 `INVALID_APP_ACCOUNT_TOKEN`: V1 consumption (appAccountToken must be UUID or "").
    public static let invalidAppAccountToken = Self(rawValue: 4000033)
    /// 4000034 `INVALID_CONSUMPTION_STATUS`: V1 consumption.
    public static let invalidConsumptionStatus = Self(rawValue: 4000034)
    /// 4000035 `INVALID_CUSTOMER_CONSENTED`: Consumption V1+V2: customerConsented must be true.
    public static let invalidCustomerConsented = Self(rawValue: 4000035)
    /// 4000036 `INVALID_DELIVERY_STATUS`: Consumption V1+V2 (see python #183: field missing in py 3.0.0).
    public static let invalidDeliveryStatus = Self(rawValue: 4000036)
    /// 4000037 `INVALID_LIFETIME_DOLLARS_PURCHASED`: V1 consumption.
    public static let invalidLifetimeDollarsPurchased = Self(rawValue: 4000037)
    /// 4000038 `INVALID_LIFETIME_DOLLARS_REFUNDED`: V1 consumption.
    public static let invalidLifetimeDollarsRefunded = Self(rawValue: 4000038)
    /// 4000039 `INVALID_PLATFORM`: V1 consumption.
    public static let invalidPlatform = Self(rawValue: 4000039)
    /// 4000040 `INVALID_PLAY_TIME`: V1 consumption.
    public static let invalidPlayTime = Self(rawValue: 4000040)
    /// 4000041 `INVALID_SAMPLE_CONTENT_PROVIDED`: Consumption V1+V2.
    public static let invalidSampleContentProvided = Self(rawValue: 4000041)
    /// 4000042 `INVALID_USER_STATUS`: V1 consumption.
    public static let invalidUserStatus = Self(rawValue: 4000042)
    /// 4000043 `INVALID_TRANSACTION_NOT_CONSUMABLE`: Deprecated; no longer sent (replaced by 4000047).
    public static let invalidTransactionNotConsumable = Self(rawValue: 4000043)
    /// 4000044 `INVALID_REFUND_PREFERENCE`: Consumption V2: invalid `refundPreference` (code from a third-party library; absent from Apple's libraries).
    public static let invalidRefundPreference = Self(rawValue: 4000044)
    /// 4000047 `INVALID_TRANSACTION_TYPE_NOT_SUPPORTED`: Consumption: unsupported IAP type (seen for non-renewing subs, issue refund-swatter-lite #7).
    public static let invalidTransactionTypeNotSupported = Self(rawValue: 4000047)
    /// 4000048 `APP_TRANSACTION_ID_NOT_SUPPORTED_ERROR`: Endpoint does not accept an appTransactionId (e.g. Get Transaction Info, consumption V2).
    public static let appTransactionIdNotSupported = Self(rawValue: 4000048)
    /// 4000161 `INVALID_IMAGE`: Invalid image.
    public static let invalidImage = Self(rawValue: 4000161)
    /// 4000162 `HEADER_TOO_LONG`: Header too long.
    public static let headerTooLong = Self(rawValue: 4000162)
    /// 4000163 `BODY_TOO_LONG`: Body too long.
    public static let bodyTooLong = Self(rawValue: 4000163)
    /// 4000164 `INVALID_LOCALE`: Invalid locale.
    public static let invalidLocale = Self(rawValue: 4000164)
    /// 4000175 `ALT_TEXT_TOO_LONG`: Alt text too long.
    public static let altTextTooLong = Self(rawValue: 4000175)
    /// 4000183 `INVALID_APP_ACCOUNT_TOKEN_UUID_ERROR`: Set App Account Token.
    public static let invalidAppAccountTokenUUID = Self(rawValue: 4000183)
    /// 4000185 `FAMILY_TRANSACTION_NOT_SUPPORTED_ERROR`: Family Sharing tx not supported (Set App Account Token, consumption V2).
    public static let familyTransactionNotSupported = Self(rawValue: 4000185)
    /// 4000187 `TRANSACTION_ID_IS_NOT_ORIGINAL_TRANSACTION_ID_ERROR`: Set App Account Token needs originalTransactionId.
    public static let transactionIdNotOriginalTransactionId = Self(rawValue: 4000187)
    /// 4000209 `CONSUMPTION_PERCENTAGE_AUTO_RENEWABLE_SUBSCRIPTION`: Consumption V2: `consumptionPercentage` sent for an auto-renewable subscription (documented; absent from Apple's libraries).
    public static let consumptionPercentageAutoRenewableSubscription = Self(rawValue: 4000209)
    /// 4000211 `INVALID_PERFORMANCE_TEST_REQUEST`: Invalid performance test request.
    public static let invalidPerformanceTestRequest = Self(rawValue: 4000211)
    /// 4000212 `INVALID_REQUEST_ID`: Invalid request id.
    public static let invalidRequestId = Self(rawValue: 4000212)
    /// 4000213 `EXISTING_PERFORMANCE_TEST_RUN`: Existing performance test run.
    public static let existingPerformanceTestRun = Self(rawValue: 4000213)
    /// 4000215 `BAD_REQUEST_REALTIME_URL`: Bad request realtime url.
    public static let badRequestRealtimeUrl = Self(rawValue: 4000215)
    /// 4000216 `BAD_REQUEST_IMAGE_SIZE`: Bad request image size.
    public static let badRequestImageSize = Self(rawValue: 4000216)
    /// 4000218 `BAD_REQUEST_TOO_MANY_BULLET_POINTS`: Bad request too many bullet points.
    public static let badRequestTooManyBulletPoints = Self(rawValue: 4000218)
    /// 4000219 `BAD_REQUEST_BULLET_POINT_TEXT_TOO_LONG`: Bad request bullet point text too long.
    public static let badRequestBulletPointTextTooLong = Self(rawValue: 4000219)
    /// 4000224 `BAD_REQUEST_ABOVE_IMAGE_REQUIRES_AN_IMAGE`: Bad request above image requires an image.
    public static let badRequestAboveImageRequiresAnImage = Self(rawValue: 4000224)
    /// 4000225 `INVALID_GROUP_ID_ERROR`: Invalid group id.
    public static let invalidGroupId = Self(rawValue: 4000225)
    /// 4000227 `INVALID_ASSIGNED_TRANSACTION_NOT_SUPPORTED_ERROR`: An `ASSIGNED` transaction is not supported (Set App Account Token, consumption V1+V2).
    public static let invalidAssignedTransactionNotSupported = Self(rawValue: 4000227)
    /// 4030004 `SUBSCRIPTION_EXTENSION_INELIGIBLE`: Subscription extension ineligible.
    public static let subscriptionExtensionIneligible = Self(rawValue: 4030004)
    /// 4030005 `SUBSCRIPTION_MAX_EXTENSION`: Subscription max extension.
    public static let subscriptionMaxExtension = Self(rawValue: 4030005)
    /// 4030007 `FAMILY_SHARED_SUBSCRIPTION_EXTENSION_INELIGIBLE`: Family shared subscription extension ineligible.
    public static let familySharedSubscriptionExtensionIneligible = Self(rawValue: 4030007)
    /// 4030014 `MAXIMUM_NUMBER_OF_IMAGES_REACHED`: Maximum number of images reached.
    public static let maximumNumberOfImagesReached = Self(rawValue: 4030014)
    /// 4030016 `MAXIMUM_NUMBER_OF_MESSAGES_REACHED`: Maximum number of messages reached.
    public static let maximumNumberOfMessagesReached = Self(rawValue: 4030016)
    /// 4030017 `MESSAGE_NOT_APPROVED`: Message not approved.
    public static let messageNotApproved = Self(rawValue: 4030017)
    /// 4030018 `IMAGE_NOT_APPROVED`: Image not approved.
    public static let imageNotApproved = Self(rawValue: 4030018)
    /// 4030019 `IMAGE_IN_USE`: Image in use.
    public static let imageInUse = Self(rawValue: 4030019)
    /// 4030026 `FORBIDDEN_NO_PASSING_TEST`: Forbidden no passing test.
    public static let forbiddenNoPassingTest = Self(rawValue: 4030026)
    /// 4030028 `ASSIGNED_SUBSCRIPTION_EXTENSION_INELIGIBLE_ERROR`: Assigned subscription extension ineligible.
    public static let assignedSubscriptionExtensionIneligible = Self(rawValue: 4030028)
    /// 4040001 `ACCOUNT_NOT_FOUND`: Account not found.
    public static let accountNotFound = Self(rawValue: 4040001)
    /// 4040002 `ACCOUNT_NOT_FOUND_RETRYABLE`: Retryable.
    public static let accountNotFoundRetryable = Self(rawValue: 4040002)
    /// 4040003 `APP_NOT_FOUND`: App not found.
    public static let appNotFound = Self(rawValue: 4040003)
    /// 4040004 `APP_NOT_FOUND_RETRYABLE`: Retryable.
    public static let appNotFoundRetryable = Self(rawValue: 4040004)
    /// 4040005 `ORIGINAL_TRANSACTION_ID_NOT_FOUND`: Original transaction id not found.
    public static let originalTransactionIdNotFound = Self(rawValue: 4040005)
    /// 4040006 `ORIGINAL_TRANSACTION_ID_NOT_FOUND_RETRYABLE`: Retryable.
    public static let originalTransactionIdNotFoundRetryable = Self(rawValue: 4040006)
    /// 4040007 `SERVER_NOTIFICATION_URL_NOT_FOUND`: Server notification url not found.
    public static let serverNotificationUrlNotFound = Self(rawValue: 4040007)
    /// 4040008 `TEST_NOTIFICATION_NOT_FOUND`: Test notification not found.
    public static let testNotificationNotFound = Self(rawValue: 4040008)
    /// 4040009 `STATUS_REQUEST_NOT_FOUND`: Status request not found.
    public static let statusRequestNotFound = Self(rawValue: 4040009)
    /// 4040010 `TRANSACTION_ID_NOT_FOUND`: Transaction id unknown in this environment (documented fallback: try the sandbox).
    public static let transactionIdNotFound = Self(rawValue: 4040010)
    /// 4040014 `IMAGE_NOT_FOUND`: Image not found.
    public static let imageNotFound = Self(rawValue: 4040014)
    /// 4040015 `MESSAGE_NOT_FOUND`: Message not found.
    public static let messageNotFound = Self(rawValue: 4040015)
    /// 4040018 `PERFORMANCE_TEST_RUN_NOT_FOUND`: Performance test run not found.
    public static let performanceTestRunNotFound = Self(rawValue: 4040018)
    /// 4040019 `APP_TRANSACTION_DOES_NOT_EXIST_ERROR`: Get App Transaction Info.
    public static let AppTransactionDoesNotExistError = Self(rawValue: 4040019)
    /// Lower-camel-case alias of ``AppTransactionDoesNotExistError`` (4040019).
    public static let appTransactionDoesNotExist = Self.AppTransactionDoesNotExistError
    /// 4040020 `DEFAULT_MESSAGE_NOT_FOUND`: Default message not found.
    public static let defaultMessageNotFound = Self(rawValue: 4040020)
    /// 4040021 `REALTIME_URL_NOT_FOUND`: Realtime url not found.
    public static let realtimeUrlNotFound = Self(rawValue: 4040021)
    /// 4040022 `GROUP_NOT_FOUND_ERROR`: Group not found.
    public static let groupNotFound = Self(rawValue: 4040022)
    /// 4090000 `IMAGE_ALREADY_EXISTS`: Image already exists.
    public static let imageAlreadyExists = Self(rawValue: 4090000)
    /// 4090001 `MESSAGE_ALREADY_EXISTS`: Message already exists.
    public static let messageAlreadyExists = Self(rawValue: 4090001)
    /// 4290000 `RATE_LIMIT_EXCEEDED`: HTTP 429; the `Retry-After` header holds the UNIX time in ms of the next allowed request.
    public static let rateLimitExceeded = Self(rawValue: 4290000)
    /// 5000000 `GENERAL_INTERNAL`: General internal.
    public static let generalInternal = Self(rawValue: 5000000)
    /// 5000001 `GENERAL_INTERNAL_RETRYABLE`: Retryable.
    public static let generalInternalRetryable = Self(rawValue: 5000001)

    /// The HTTP status code Apple sends this error with (the code's first three digits).
    public var httpStatus: Int { Int(rawValue / 10000) }

    /// Whether Apple documents the error as one to retry later (the `…Retryable` codes and rate limiting).
    public var isRetryable: Bool {
        self == .accountNotFoundRetryable || self == .appNotFoundRetryable
            || self == .originalTransactionIdNotFoundRetryable || self == .generalInternalRetryable
            || self == .rateLimitExceeded
    }

    /// The documented values, in ascending code order (Apple's documentation order).
    public static let knownValues: [Self] = [
        .generalBadRequest,
        .invalidAppIdentifier,
        .invalidRequestRevision,
        .invalidTransactionId,
        .invalidOriginalTransactionId,
        .invalidExtendByDays,
        .invalidExtendReasonCode,
        .invalidRequestIdentifier,
        .startDateTooFarInPast,
        .startDateAfterEndDate,
        .invalidPaginationToken,
        .invalidStartDate,
        .invalidEndDate,
        .paginationTokenExpired,
        .invalidNotificationType,
        .multipleFiltersSupplied,
        .invalidTestNotificationToken,
        .invalidSort,
        .invalidProductType,
        .invalidProductId,
        .invalidSubscriptionGroupIdentifier,
        .invalidExcludeRevoked,
        .invalidInAppOwnershipType,
        .invalidEmptyStorefrontCountryCodeList,
        .invalidStorefrontCountryCode,
        .invalidRevoked,
        .invalidStatus,
        .invalidAccountTenure,
        .invalidAppAccountToken,
        .invalidConsumptionStatus,
        .invalidCustomerConsented,
        .invalidDeliveryStatus,
        .invalidLifetimeDollarsPurchased,
        .invalidLifetimeDollarsRefunded,
        .invalidPlatform,
        .invalidPlayTime,
        .invalidSampleContentProvided,
        .invalidUserStatus,
        .invalidTransactionNotConsumable,
        .invalidRefundPreference,
        .invalidTransactionTypeNotSupported,
        .appTransactionIdNotSupported,
        .invalidImage,
        .headerTooLong,
        .bodyTooLong,
        .invalidLocale,
        .altTextTooLong,
        .invalidAppAccountTokenUUID,
        .familyTransactionNotSupported,
        .transactionIdNotOriginalTransactionId,
        .consumptionPercentageAutoRenewableSubscription,
        .invalidPerformanceTestRequest,
        .invalidRequestId,
        .existingPerformanceTestRun,
        .badRequestRealtimeUrl,
        .badRequestImageSize,
        .badRequestTooManyBulletPoints,
        .badRequestBulletPointTextTooLong,
        .badRequestAboveImageRequiresAnImage,
        .invalidGroupId,
        .invalidAssignedTransactionNotSupported,
        .subscriptionExtensionIneligible,
        .subscriptionMaxExtension,
        .familySharedSubscriptionExtensionIneligible,
        .maximumNumberOfImagesReached,
        .maximumNumberOfMessagesReached,
        .messageNotApproved,
        .imageNotApproved,
        .imageInUse,
        .forbiddenNoPassingTest,
        .assignedSubscriptionExtensionIneligible,
        .accountNotFound,
        .accountNotFoundRetryable,
        .appNotFound,
        .appNotFoundRetryable,
        .originalTransactionIdNotFound,
        .originalTransactionIdNotFoundRetryable,
        .serverNotificationUrlNotFound,
        .testNotificationNotFound,
        .statusRequestNotFound,
        .transactionIdNotFound,
        .imageNotFound,
        .messageNotFound,
        .performanceTestRunNotFound,
        .AppTransactionDoesNotExistError,
        .defaultMessageNotFound,
        .realtimeUrlNotFound,
        .groupNotFound,
        .imageAlreadyExists,
        .messageAlreadyExists,
        .rateLimitExceeded,
        .generalInternal,
        .generalInternalRetryable,
    ]
}
