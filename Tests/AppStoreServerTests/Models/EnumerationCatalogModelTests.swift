import AppStoreServer
import Testing

/// The documented values of every Apple enumeration: count, wire values and distinctness.
@Suite("Enumeration catalogue")
struct EnumerationCatalogModelTests {
    private func rawValues<E: AppleEnumeration>(_: E.Type) -> [E.RawValue] {
        E.knownValues.map(\.rawValue)
    }

    private func isConsistent<E: AppleEnumeration>(_: E.Type) -> Bool {
        let values = E.knownValues
        return Set(values).count == values.count && values.allSatisfy(\.isKnown)
    }

    @Test func stringEnumerationsHaveTheDocumentedWireValues() {
        #expect(rawValues(NotificationTypeV2.self) == [
            "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED", "DID_RENEW",
            "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED",
            "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "REVOKE", "TEST", "RENEWAL_EXTENSION", "REFUND_REVERSED",
            "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE", "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
            "UNCLAIM_SEATS",
        ])
        #expect(rawValues(Subtype.self) == [
            "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED",
            "VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY",
            "PRODUCT_NOT_FOR_SALE", "SUMMARY", "FAILURE", "UNREPORTED", "SEATS", "INCREASE_QUANTITY", "DECREASE_QUANTITY",
        ])
        #expect(rawValues(ProductType.self) == ["Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription"])
        #expect(rawValues(TransactionHistoryRequest.ProductType.self) == ["AUTO_RENEWABLE", "NON_RENEWABLE", "CONSUMABLE", "NON_CONSUMABLE"])
        #expect(rawValues(TransactionHistoryRequest.Order.self) == ["ASCENDING", "DESCENDING"])
        #expect(rawValues(RevocationType.self) == ["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE", "ASSIGNMENT_REVOKE"])
        #expect(rawValues(TransactionReason.self) == ["PURCHASE", "RENEWAL"])
        #expect(rawValues(OfferDiscountType.self) == ["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "ONE_TIME"])
        #expect(rawValues(InAppOwnershipType.self) == ["FAMILY_SHARED", "PURCHASED", "ASSIGNED"])
        #expect(rawValues(InvitationManagement.self) == ["APPLE", "DEVELOPER"])
        #expect(rawValues(AdditionalTransactionReason.self) == ["SEAT_ADDITION"])
        #expect(rawValues(BillingPlanType.self) == ["BILLED_UPFRONT", "MONTHLY"])
        #expect(rawValues(PurchasePlatform.self) == ["iOS", "macOS", "tvOS", "visionOS"])
        #expect(rawValues(ConsumptionRequestReason.self) == ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"])
        #expect(rawValues(DeliveryStatus.self) == ["DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER"])
        #expect(rawValues(RefundPreference.self) == ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"])
        #expect(rawValues(SendAttemptResult.self) == [
            "SUCCESS", "TIMED_OUT", "TLS_ISSUE", "CIRCULAR_REDIRECT", "NO_RESPONSE", "SOCKET_ISSUE", "UNSUPPORTED_CHARSET",
            "INVALID_RESPONSE", "PREMATURE_CLOSE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "OTHER",
        ])
    }

    @Test func integerEnumerationsHaveTheDocumentedWireValues() {
        #expect(rawValues(SubscriptionStatus.self) == [1, 2, 3, 4, 5])
        #expect(rawValues(AutoRenewStatus.self) == [0, 1])
        #expect(rawValues(PriceIncreaseStatus.self) == [0, 1])
        #expect(rawValues(ExpirationIntent.self) == [1, 2, 3, 4, 5])
        #expect(rawValues(RevocationReason.self) == [0, 1])
        #expect(rawValues(OfferType.self) == [1, 2, 3, 4, 5])
        #expect(rawValues(OrderLookupStatus.self) == [0, 1])
        #expect(rawValues(ExtendReasonCode.self) == [0, 1, 2, 3])
    }

    @Test func namedConstantsFollowApplesLibrary() {
        #expect(NotificationTypeV2.didChangeRenewalStatus.rawValue == "DID_CHANGE_RENEWAL_STATUS")
        #expect(Subtype.autoRenewDisabled.rawValue == "AUTO_RENEW_DISABLED")
        #expect(OfferType.offerCode.rawValue == 3)
        #expect(OfferType.winBackOffer.rawValue == 4)
        #expect(ProductType.autoRenewable.rawValue == "Auto-Renewable Subscription")
        #expect(ProductType.nonRenewable.rawValue == "Non-Renewing Subscription")
        #expect(SubscriptionStatus.billingGracePeriod.rawValue == 4)
        #expect(ExpirationIntent.customerDidNotConsentToPriceIncrease.rawValue == 3)
        #expect(ExtendReasonCode.serviceIssueOrOutage.rawValue == 3)
        #expect(NotificationTypeV2.unclaimSeats.rawValue == "UNCLAIM_SEATS")
        #expect(Subtype.seats.rawValue == "SEATS")
        #expect(Subtype.increaseQuantity.rawValue == "INCREASE_QUANTITY")
        #expect(Subtype.decreaseQuantity.rawValue == "DECREASE_QUANTITY")
        #expect(InAppOwnershipType.assigned.rawValue == "ASSIGNED")
        #expect(RevocationType.assignmentRevoke.rawValue == "ASSIGNMENT_REVOKE")
        #expect(InvitationManagement.apple.rawValue == "APPLE")
        #expect(AdditionalTransactionReason.seatAddition.rawValue == "SEAT_ADDITION")
    }

    @Test func everyCatalogueIsDistinctAndKnown() {
        #expect(isConsistent(NotificationTypeV2.self))
        #expect(isConsistent(Subtype.self))
        #expect(isConsistent(SubscriptionStatus.self))
        #expect(isConsistent(AutoRenewStatus.self))
        #expect(isConsistent(PriceIncreaseStatus.self))
        #expect(isConsistent(ExpirationIntent.self))
        #expect(isConsistent(RevocationReason.self))
        #expect(isConsistent(RevocationType.self))
        #expect(isConsistent(TransactionReason.self))
        #expect(isConsistent(OfferType.self))
        #expect(isConsistent(OfferDiscountType.self))
        #expect(isConsistent(InAppOwnershipType.self))
        #expect(isConsistent(InvitationManagement.self))
        #expect(isConsistent(AdditionalTransactionReason.self))
        #expect(isConsistent(ProductType.self))
        #expect(isConsistent(BillingPlanType.self))
        #expect(isConsistent(PurchasePlatform.self))
        #expect(isConsistent(ConsumptionRequestReason.self))
        #expect(isConsistent(DeliveryStatus.self))
        #expect(isConsistent(RefundPreference.self))
        #expect(isConsistent(SendAttemptResult.self))
        #expect(isConsistent(OrderLookupStatus.self))
        #expect(isConsistent(ExtendReasonCode.self))
        #expect(isConsistent(APIError.self))
        #expect(isConsistent(TransactionHistoryRequest.ProductType.self))
        #expect(isConsistent(TransactionHistoryRequest.Order.self))
    }
}
