import Foundation

extension Decision {
    /// A realtime Retention Messaging answer: the message in the customer's locale, and the
    /// offer or alternate product shown with it.
    public struct Answer: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The message id of `messages.yaml`.
        public let message: String
        /// The locale of the text chosen (`en-US`).
        public let locale: String
        /// Apple's identifier of that text.
        public let messageIdentifier: UUID
        /// A promotional offer shown with the message.
        public let offer: OfferChoice?
        /// `V2` or `V1`, for an offer.
        public let signature: AnswerSpec.SignatureVersion?
        /// A product of the subscription's group suggested instead.
        public let alternateProduct: String?
        /// `BILLED_UPFRONT` or `MONTHLY`, with an alternate product.
        public let billingPlanType: String?

        /// `message annual-stay (en-US) with offer x (PROMOTIONAL)`.
        public var description: String {
            var text = "message \(message) (\(locale))"
            if let offer { text += " with offer \(offer)" + (signature == .v1 ? ", signed V1" : "") }
            if let alternateProduct {
                text += " suggesting \(alternateProduct)" + (billingPlanType.map { " (\($0))" } ?? "")
            }
            return text
        }
    }
}
